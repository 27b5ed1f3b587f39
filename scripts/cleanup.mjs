// `npm run cleanup`: runs the daily housekeeping (the Worker's Cron Trigger) now, against the server `npm start`
// runs (it serves with --test-scheduled, so wrangler exposes /__scheduled locally). PORT as for `npm start`.
const port = Number(process.env.PORT ?? 8787);
const res = await fetch(`http://127.0.0.1:${port}/__scheduled?cron=${encodeURIComponent("17 3 * * *")}`).catch((e) => {
  console.error(`No Cohort server answers on port ${port} (${e.cause?.code ?? e.message}). Start it with npm start first.`);
  process.exit(1);
});
if (!res.ok) {
  console.error(`The cleanup did not run: ${res.status} ${await res.text()}`);
  process.exit(1);
}
console.log("Cleanup ran; the server's log shows what it deleted.");
