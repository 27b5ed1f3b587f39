/**
 * Graduation (issue 22). For a group's staff: GET/PUT /api/groups/{id}/completion-rule is read with the roster
 * (GET /api/groups/{id}/certificates), POST /api/groups/{id}/certificates issues, POST /api/certificates/{id}/revoke
 * revokes. For the graduate: GET /api/certificates/mine, PUT /api/certificates/{id}/language. For anyone:
 * GET /api/certificates/{code} (the signed statement), /api/certificates/issuer and /api/certificates/jwks.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { certificateLanguageInput, completionRuleInput, issueCertificatesInput, revokeCertificateInput } from "../../app/lib/lifecycle-schemas";
import { idOrSlugParam } from "../../app/lib/schemas";
import { noStore, requireAuth, requireStaffRole, viewerOf } from "../auth/middleware";
import {
  certificateRoster,
  issueCertificates,
  issuerKeys,
  issuerProfile,
  myCertificates,
  revokeCertificate,
  setCertificateLanguage,
  setCompletionRule,
  signedCertificate,
  certificateStatusList,
} from "../services/certificates";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse } from "./users-dto";

const tags = ["Certificates"];
const staffGuards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not this group's instructor or an admin"), 404: errorResponse("No such group") };

const ruleDto = z
  .object({ overall: z.number().int().nullable(), attendance: z.number().int().nullable() })
  .openapi("CompletionRule", { description: "Thresholds in percent of the one progress definition (Overall, attendance); null: not part of the rule" });
const summaryDto = z
  .object({ _id: z.string(), code: z.string(), issuedAt: z.string(), language: z.enum(["en", "ar"]), revokedAt: z.string().nullable(), revokedReason: z.string().nullable() })
  .openapi("CertificateSummary");
const rosterDto = z
  .object({
    rule: ruleDto,
    opensOn: z.string().nullable().openapi({ description: "The course's first day (YYYY-MM-DD) while it is still to come: certificates can be issued from then; null once it has started" }),
    stillToCome: z
      .object({ lectures: z.number().int(), lastOn: z.string(), endsOn: z.string() })
      .nullable()
      .openapi({ description: "Once the course has started: published lectures dated after now, the day of the last of them, and the day a certificate issued now gives as the course's last (the last lecture held); null when none is to come" }),
    members: z.array(
      z.object({
        _id: z.string(),
        name: z.string(),
        slug: z.string(),
        overall: z.number().nullable(),
        attendance: z.number().nullable(),
        meetsRule: z.boolean(),
        certificate: summaryDto.nullable(),
      }),
    ),
    former: z
      .array(z.object({ _id: z.string(), name: z.string(), certificate: summaryDto }))
      .openapi({ description: "Certificates of people no longer in the group (left or removed), by the name on the certificate: still listed so they can be revoked" }),
  })
  .openapi("CertificateRoster");

const codeParam = z.object({
  // Any string: one that is not a code is simply no certificate (404, as an unknown code), never a form to correct.
  code: z.string().openapi({ param: { name: "code", in: "path" }, example: "ABCD-EFGH-JKLM-NPQR" }),
});
const idParam = z.object({ id: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Invalid id").openapi({ param: { name: "id", in: "path" } }) });

export const groupCertificatesApi = createApi()
  .openapi(
    createRoute({
      method: "put",
      path: "/{id}/completion-rule",
      tags,
      summary: "Set the group's completion rule: Overall and attendance thresholds in percent (null leaves one out)",
      middleware: [noStore, requireStaffRole] as const,
      request: { params: idOrSlugParam, body: jsonBody(completionRuleInput) },
      responses: { 200: jsonResponse("The rule", ruleDto), 400: errorResponse("Invalid fields"), ...staffGuards },
    }),
    async (c) => c.json(await setCompletionRule(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{id}/certificates",
      tags,
      summary: "The rule, and every member with Overall, attendance, whether they meet the rule, and their certificate",
      middleware: [noStore, requireStaffRole] as const,
      request: { params: idOrSlugParam },
      responses: { 200: jsonResponse("The roster", rosterDto), ...staffGuards },
    }),
    async (c) => c.json(await certificateRoster(c.var.svc, viewerOf(c), c.req.valid("param").id), 200),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{id}/certificates",
      tags,
      summary: "Issue certificates: to the members named in userIds (by hand), or else to every member who meets the rule. Holders are skipped; a revoked one is issued again. Each graduate is told in the bell and by e-mail.",
      middleware: [noStore, requireStaffRole] as const,
      request: { params: idOrSlugParam, body: jsonBody(issueCertificatesInput) },
      responses: {
        201: jsonResponse("What was issued", z.object({ issued: z.number().int(), certificates: z.array(summaryDto) }).openapi("IssuedCertificates")),
        400: errorResponse("No rule and nobody named, or someone who is not a member"),
        409: errorResponse("The course has not started yet (course_not_started)"),
        ...staffGuards,
      },
    }),
    async (c) => c.json(await issueCertificates(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 201),
  );

const signedDto = z
  .object({
    certificate: z.object({
      code: z.string(),
      url: z.string(),
      recipientName: z.string(),
      courseTitle: z.string(),
      instructorName: z.string().nullable(),
      startsOn: z.string().nullable(),
      endsOn: z.string().nullable(),
      issuedAt: z.string(),
      language: z.enum(["en", "ar"]),
      revoked: z.object({ at: z.string(), reason: z.string() }).nullable(),
    }),
    credential: z.record(z.string(), z.unknown()).openapi({ description: "An OpenBadgeCredential (Open Badges 3.0, W3C Verifiable Credential)" }),
    jwt: z.string().nullable().openapi({ description: "The credential secured as a JWT (RS256); check it with the key in verification.jwks. null for a revoked certificate: it is not signed again" }),
    verification: z.object({ jwks: z.string(), kid: z.string(), alg: z.literal("RS256") }),
  })
  .openapi("SignedCertificate");

export const certificatesApi = createApi()
  .openapi(
    createRoute({
      method: "get",
      path: "/issuer",
      tags,
      summary: "The issuer's Open Badges profile with its public key",
      responses: { 200: jsonResponse("The issuer", z.record(z.string(), z.unknown())) },
    }),
    async (c) => c.json(await issuerProfile(c.var.svc), 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/jwks",
      tags,
      summary: "The public key set that checks certificates' signatures",
      responses: { 200: jsonResponse("JWKS", z.object({ keys: z.array(z.record(z.string(), z.unknown())) })) },
    }),
    async (c) => c.json(await issuerKeys(c.var.svc), 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/mine",
      tags,
      summary: "The caller's own certificates, newest first",
      middleware: [noStore, requireAuth] as const,
      responses: { 200: jsonResponse("Certificates", z.array(summaryDto.extend({ groupId: z.string().nullable(), courseTitle: z.string() }))), 401: errorResponse("Not signed in") },
    }),
    async (c) => c.json(await myCertificates(c.var.svc, viewerOf(c)), 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{code}",
      tags,
      summary: "A certificate's signed statement, for anyone with its address: what it says, the Open Badges 3.0 credential, the same as a JWT, and where the key is. A revoked certificate says so.",
      request: { params: codeParam },
      responses: { 200: jsonResponse("The signed certificate", signedDto), 404: errorResponse("No such certificate (or not a certificate code)") },
    }),
    async (c) => c.json(await signedCertificate(c.var.svc, c.req.valid("param").code), 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{code}/status",
      tags,
      summary:
        "A certificate's revocation status, where its credential's `statusListCredential` points: a W3C Bitstring Status List credential (bit 0 set once revoked); asked with `Accept: application/vc+jwt`, the same secured as a JWT, checked with the key in /api/certificates/jwks",
      request: { params: codeParam },
      responses: {
        200: {
          description: "The status list credential",
          content: { "application/json": { schema: z.record(z.string(), z.unknown()).openapi("BitstringStatusListCredential") }, "application/vc+jwt": { schema: z.string() } },
        },
        404: errorResponse("No such certificate (or not a certificate code)"),
      },
    }),
    async (c) => {
      const { credential, jwt } = await certificateStatusList(c.var.svc, c.req.valid("param").code);
      // A revocation must reach verifiers soon: a minute in any cache at the most; the two forms vary by Accept.
      const headers = { "Cache-Control": "public, max-age=60", Vary: "Accept" };
      if (/application\/(vc\+)?jwt/i.test(c.req.header("accept") ?? "")) return new Response(jwt, { status: 200, headers: { ...headers, "Content-Type": "application/vc+jwt" } });
      return c.json(credential, 200, headers);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{id}/revoke",
      tags,
      summary: "Revoke a certificate with a reason (the group's staff); its page and statement say so from then on",
      middleware: [noStore, requireStaffRole] as const,
      request: { params: idParam, body: jsonBody(revokeCertificateInput) },
      responses: {
        200: jsonResponse("Revoked", summaryDto),
        400: errorResponse("No reason"),
        401: errorResponse("Not signed in"),
        403: errorResponse("Not the group's instructor or an admin"),
        404: errorResponse("No such certificate"),
        409: errorResponse("Already revoked"),
      },
    }),
    async (c) => c.json(await revokeCertificate(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/{id}/language",
      tags,
      summary: "The graduate chooses the language their certificate is written in",
      middleware: [noStore, requireAuth] as const,
      request: { params: idParam, body: jsonBody(certificateLanguageInput) },
      responses: { 200: jsonResponse("The certificate", summaryDto), 400: errorResponse("Not en or ar"), 401: errorResponse("Not signed in"), 403: errorResponse("Not the graduate"), 404: errorResponse("No such certificate") },
    }),
    async (c) => c.json(await setCertificateLanguage(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json").language), 200),
  );
