// Prints a new RSA private key as a JWK, for the CERTIFICATE_SIGNING_KEY secret of a deployment:
//   npm run certificate-key | npx wrangler secret put CERTIFICATE_SIGNING_KEY --env production
import { generateKeyPairSync } from "node:crypto";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
process.stdout.write(JSON.stringify(privateKey.export({ format: "jwk" })));
