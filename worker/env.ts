import { z } from "zod";
import { DEV_CERTIFICATE_KEY } from "./services/certificate-dev-key";

/**
 * The Worker's bindings and variables, parsed once per isolate (not per request).
 * A missing or malformed setting fails loudly at the first request instead of misbehaving later.
 */
export interface Bindings {
  DB: D1Database;
  ASSETS: Fetcher;
  IMAGES: R2Bucket;
  GroupRoom: DurableObjectNamespace;
  UserHub: DurableObjectNamespace;
  StaffInbox: DurableObjectNamespace;
  /** One per quiz: its alarm closes and grades attempts at their deadline (worker/realtime/quiz-clock.ts). */
  QuizClock: DurableObjectNamespace<import("./realtime/quiz-clock").QuizClock>;
  /** One per group: its alarm publishes scheduled lectures, tasks and quizzes on time (worker/realtime/publisher.ts). */
  Publisher: DurableObjectNamespace<import("./realtime/publisher").Publisher>;
  /** The code runner Worker (wrangler.runner.toml) in production; absent locally, where the engine runs in-process. */
  RUNNER?: Service<import("./runner").CodeRunner>;
  /** Which deployed version of the Worker answers (wrangler.toml [version_metadata]): part of the edge cache's keys. */
  CF_VERSION_METADATA?: WorkerVersionMetadata;
  ENVIRONMENT: string;
  PUBLIC_ORIGIN: string;
  CONTACT_EMAIL: string;
  CONTACT_PHONE: string;
  WHATSAPP_NUMBER: string;
  SOCIAL_LINKS: string;
  MAIL_FROM: string;
  AUTH_SECRET?: string;
  PASSWORD_PEPPER?: string;
  RESEND_API_KEY?: string;
  RESEND_BASE_URL?: string;
  /** The RSA private key (a JWK, JSON) that signs certificates; required in production (issue 22). */
  CERTIFICATE_SIGNING_KEY?: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** Google's OAuth endpoints; only tests (a local stand-in) and special deployments change them. */
  GOOGLE_AUTHORIZE_URL?: string;
  GOOGLE_TOKEN_URL?: string;
  GOOGLE_JWKS_URL?: string;
  GOOGLE_ISSUER?: string;
}

/** Used only when ENVIRONMENT is development or test, so a newcomer needs no settings. */
const DEV_SECRET = "cohort-local-development-secret-not-for-production";

/** Google's published OpenID endpoints (https://accounts.google.com/.well-known/openid-configuration). */
export const GOOGLE_DEFAULTS = {
  authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenUrl: "https://oauth2.googleapis.com/token",
  jwksUrl: "https://www.googleapis.com/oauth2/v3/certs",
  /** Google signs ID tokens with either spelling of its issuer. */
  issuers: ["https://accounts.google.com", "accounts.google.com"],
} as const;

const socialLinks = z
  .string()
  .transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "SOCIAL_LINKS must be JSON" });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string(), z.url()));

const settingsSchema = z
  .object({
    ENVIRONMENT: z.enum(["development", "test", "production"]),
    PUBLIC_ORIGIN: z.url(),
    CONTACT_EMAIL: z.email(),
    CONTACT_PHONE: z.string().min(3),
    WHATSAPP_NUMBER: z.string().regex(/^\d{6,15}$/, "digits only, with country code"),
    SOCIAL_LINKS: socialLinks,
    MAIL_FROM: z.string().min(3),
    AUTH_SECRET: z.string().min(32).optional(),
    PASSWORD_PEPPER: z.string().min(16).optional(),
    RESEND_API_KEY: z.string().min(1).optional(),
    CERTIFICATE_SIGNING_KEY: z
      .string()
      .refine((v) => {
        try {
          const k = JSON.parse(v) as Record<string, unknown>;
          return k.kty === "RSA" && typeof k.n === "string" && typeof k.d === "string";
        } catch {
          return false;
        }
      }, "CERTIFICATE_SIGNING_KEY must be an RSA private key as a JWK (JSON)")
      .optional(),
    RESEND_BASE_URL: z.url().optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_AUTHORIZE_URL: z.url().optional(),
    GOOGLE_TOKEN_URL: z.url().optional(),
    GOOGLE_JWKS_URL: z.url().optional(),
    GOOGLE_ISSUER: z.string().min(1).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.ENVIRONMENT === "production") {
      for (const key of ["AUTH_SECRET", "PASSWORD_PEPPER", "CERTIFICATE_SIGNING_KEY"] as const) {
        if (!v[key]) ctx.addIssue({ code: "custom", path: [key], message: `${key} is required in production` });
      }
      if (v.CERTIFICATE_SIGNING_KEY?.includes(DEV_CERTIFICATE_KEY.n)) {
        ctx.addIssue({ code: "custom", path: ["CERTIFICATE_SIGNING_KEY"], message: "CERTIFICATE_SIGNING_KEY must be a key of your own, not the published development key" });
      }
    }
  });

export interface Settings {
  environment: "development" | "test" | "production";
  isDev: boolean;
  publicOrigin: string;
  contactEmail: string;
  contactPhone: string;
  whatsappNumber: string;
  socialLinks: Record<string, string>;
  mailFrom: string;
  authSecret: string;
  passwordPepper: string;
  /** The certificates' signing key (a private JWK); the published development key outside production. */
  certificateKey: Record<string, string>;
  resend: { apiKey: string; baseUrl?: string } | null;
  /** Google sign-in, or null when GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET are not set. */
  google: GoogleSettings | null;
}

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  /** Accepted `iss` values of ID tokens. */
  issuers: string[];
}

let cached: { source: Bindings; settings: Settings } | null = null;
/** The variables the settings are made of (bindings such as DB are not among them). */
const SETTING_KEYS = Object.keys(settingsSchema.shape) as (keyof Bindings)[];

/**
 * Parse the environment once per isolate. workerd hands every request the same `env`, but a request's copy differs
 * (its `DB` is the request's D1 session, d1-session.ts): the same variables are the same settings.
 */
export function getSettings(env: Bindings): Settings {
  if (cached && (cached.source === env || SETTING_KEYS.every((k) => cached!.source[k] === env[k]))) return cached.settings;
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid Worker settings: ${detail}`);
  }
  const v = parsed.data;
  const settings: Settings = {
    environment: v.ENVIRONMENT,
    isDev: v.ENVIRONMENT !== "production",
    publicOrigin: v.PUBLIC_ORIGIN.replace(/\/$/, ""),
    contactEmail: v.CONTACT_EMAIL,
    contactPhone: v.CONTACT_PHONE,
    whatsappNumber: v.WHATSAPP_NUMBER,
    socialLinks: v.SOCIAL_LINKS,
    mailFrom: v.MAIL_FROM,
    authSecret: v.AUTH_SECRET ?? DEV_SECRET,
    passwordPepper: v.PASSWORD_PEPPER ?? DEV_SECRET,
    certificateKey: v.CERTIFICATE_SIGNING_KEY ? (JSON.parse(v.CERTIFICATE_SIGNING_KEY) as Record<string, string>) : DEV_CERTIFICATE_KEY,
    resend: v.RESEND_API_KEY ? { apiKey: v.RESEND_API_KEY, baseUrl: v.RESEND_BASE_URL } : null,
    google:
      v.GOOGLE_CLIENT_ID && v.GOOGLE_CLIENT_SECRET
        ? {
            clientId: v.GOOGLE_CLIENT_ID,
            clientSecret: v.GOOGLE_CLIENT_SECRET,
            authorizeUrl: v.GOOGLE_AUTHORIZE_URL ?? GOOGLE_DEFAULTS.authorizeUrl,
            tokenUrl: v.GOOGLE_TOKEN_URL ?? GOOGLE_DEFAULTS.tokenUrl,
            jwksUrl: v.GOOGLE_JWKS_URL ?? GOOGLE_DEFAULTS.jwksUrl,
            issuers: v.GOOGLE_ISSUER ? [v.GOOGLE_ISSUER] : [...GOOGLE_DEFAULTS.issuers],
          }
        : null,
  };
  cached = { source: env, settings };
  return settings;
}
