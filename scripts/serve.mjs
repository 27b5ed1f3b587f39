// `npm start`: build, migrate and seed the local D1, then serve the app at http://localhost:8787 (PORT overrides).
import { build, migrate, portInUse, seed, servedVars, startWorker } from "./lib.mjs";

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(2);
}

if (await portInUse(port)) {
  console.error(`Port ${port} is already in use: another server is answering there. Stop it, or start Cohort on another port: PORT=9000 npm start`);
  process.exit(1);
}

console.log("Building the app...");
build();
console.log("Applying migrations to the local D1...");
migrate();
const worker = await startWorker({ port, quiet: false, vars: servedVars(port) });
const { seeded } = await seed(worker.origin);
console.log(`
Cohort is running at http://localhost:${port}  (${seeded ? "demo data seeded" : "demo data already present"})

Demo accounts:
  admin       admin@example.com       demo-admin-pass
  instructor  instructor@example.com  demo-instructor-pass
  student     student@example.com     demo-student-pass

Local mailbox: http://localhost:${port}/dev/mailbox    API reference: http://localhost:${port}/api/docs
Press Ctrl+C to stop.`);

for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    worker.stop();
    process.exit(0);
  });
}
worker.child.on("exit", (code) => process.exit(code ?? 0));
