/**
 * Input schemas shared by the browser forms, the Remix actions and the Hono API (which also
 * turns them into the OpenAPI document). Client-safe: no server imports here.
 */
import { z } from "zod";
import { PARTIES } from "./realtime-protocol";

export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

export const contactInput = z.object({
  name: z.string().trim().min(1, "Please enter your name.").max(CONTACT_LIMITS.name, `Name must be at most ${CONTACT_LIMITS.name} characters.`),
  email: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.email, "E-mail address is too long.")
    .pipe(z.email("Please enter a valid e-mail address.")),
  message: z
    .string()
    .trim()
    .min(1, "Please write a message.")
    .max(CONTACT_LIMITS.message, `Message must be at most ${CONTACT_LIMITS.message} characters.`),
});
export type ContactInput = z.infer<typeof contactInput>;

/** `{id}` path parameters accept a record's id or its slug. */
export const idOrSlugParam = z.object({
  id: z.string().min(1).max(120).regex(/^[\p{L}\p{N}_-]+$/u, "Invalid id"),
});

export const mailboxQuery = z.object({
  to: z.email("Give the recipient as ?to=EMAIL"),
});

/* ------------------------------------------------------------------------------------------------
 * Accounts and sessions (platform-spec §5 and §8 wording). The API and the Remix actions parse with
 * these; the forms may use them as they are.
 * ---------------------------------------------------------------------------------------------- */

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const CODE_DIGITS = 6;

const FILL_ALL = "Please fill out all fields.";

/** A required string whose absence reads as the spec's "fill out all fields". */
const required = (message = FILL_ALL) => z.string({ error: message });

const email = (missing = FILL_ALL) =>
  required(missing)
    .trim()
    .toLowerCase()
    .min(1, missing)
    .max(EMAIL_MAX_LENGTH, "E-mail address is too long.")
    .pipe(z.email("Please enter a valid e-mail address."));

const newPassword = (missing = FILL_ALL) =>
  required(missing)
    .min(1, missing)
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`);

const personName = (missing = FILL_ALL) =>
  required(missing).trim().min(1, missing).max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters.`);

/**
 * Country code plus digits ("+201001234567"). Spaces, dashes and brackets are dropped first, so
 * "+20 100-123-4567" is accepted too.
 */
const phoneNumber = (missing = FILL_ALL) =>
  required(missing)
    .trim()
    .overwrite((s) => s.replace(/[\s().-]/g, ""))
    .min(1, missing)
    .regex(/^\+\d{6,15}$/, "Enter the phone number with its country code, e.g. +201001234567.");

const country = z.string().trim().min(2, "Choose a country.").max(60, "Choose a country.");

/** A 6-digit code; spaces (as the reset form shows them) are removed. */
const oneTimeCode = (message: string) =>
  required(message)
    .overwrite((s) => s.replace(/\s+/g, ""))
    .regex(/^\d{6}$/, message);

export const registerInput = z.object({
  name: personName(),
  email: email(),
  password: newPassword(),
  phone_number: phoneNumber(),
  country: country.optional(),
  /** Device visitor id sent by the original client; stored, never trusted. */
  fingerprint: z.string().trim().max(200).optional(),
});
export type RegisterInput = z.infer<typeof registerInput>;

/** The registration form: the API input plus the confirmation field. */
export const registerFormInput = registerInput
  .extend({ confirmPassword: required() })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "Passwords do not match." });

export const loginInput = z.object({
  email: email(),
  password: required().min(1, FILL_ALL).max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
  fingerprint: z.string().trim().max(200).optional(),
});
export type LoginInput = z.infer<typeof loginInput>;

export const verifyEmailInput = z.object({
  email: email(),
  code: oneTimeCode("Enter the full 6-digit code"),
});
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>;

/** Forgot password and "send me a new verification code". */
export const emailOnlyInput = z.object({ email: email("Please enter your email.") });
export type EmailOnlyInput = z.infer<typeof emailOnlyInput>;

export const resetPasswordInput = z.object({
  email: email(),
  newPassword: newPassword(),
  resetCode: oneTimeCode("Must be 6 digits"),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

export const updateProfileInput = z.object({
  name: personName().optional(),
  phone_number: phoneNumber().optional(),
  country: country.optional(),
});
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const changePasswordInput = z.object({
  currentPassword: required("Please enter your current password.").min(1, "Please enter your current password.").max(PASSWORD_MAX_LENGTH),
  newPassword: newPassword(),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const deleteAccountInput = z.object({
  password: required("Please enter your password.").min(1, "Please enter your password.").max(PASSWORD_MAX_LENGTH),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

export const USER_ROLES = ["admin", "instructor", "user"] as const;

/** Admin user list: `?search=&page=&pageSize=&role=`. */
export const listUsersQuery = z.object({
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  role: z.enum(USER_ROLES).optional(),
});
export type ListUsersQuery = z.infer<typeof listUsersQuery>;

export const changeRoleInput = z.object({ role: z.enum(USER_ROLES, "Choose admin, instructor or user.") });
export type ChangeRoleInput = z.infer<typeof changeRoleInput>;

export const realtimeTicketInput = z.object({
  party: z.enum(PARTIES),
  room: z.string().min(1).max(120),
});
export type RealtimeTicketInput = z.infer<typeof realtimeTicketInput>;
