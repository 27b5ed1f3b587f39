/** Signing up and in: /api/users/register, verify-email, resend-verification, login, refresh-token, logout, forgot- and reset-password. */
import { createRoute, z } from "@hono/zod-openapi";
import { emailOnlyInput, loginInput, registerInput, resetPasswordInput, verifyEmailInput } from "../../app/lib/schemas";
import { clientInfo, refreshTokenFrom } from "../auth/cookies";
import { statedLang } from "../../app/i18n/config";
import { requireSameOrigin, requireSameOriginForCookie } from "../auth/middleware";
import { forgot, login, register, reset, resendCode, verifyEmail } from "../services/accounts";
import { logout, refresh } from "../services/sessions";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, loginDto, messageDto, tokenDto } from "./users-dto";

const tags = ["Accounts"];
const limited = errorResponse("Too many attempts; see Retry-After");

const registerRoute = createRoute({
  method: "post",
  path: "/register",
  tags,
  summary: "Create an account; a 6-digit verification code is e-mailed",
  description:
    "Answers the same for an address that already has an account (its owner is e-mailed instead), so the endpoint does not reveal which addresses are registered.",
  request: { body: jsonBody(registerInput) },
  responses: { 201: jsonResponse("Registered; check the e-mail", messageDto), 400: errorResponse("Please fill out all fields."), 429: limited },
});

const verifyRoute = createRoute({
  method: "post",
  path: "/verify-email",
  tags,
  summary: "Verify the e-mail address with the 6-digit code",
  request: { body: jsonBody(verifyEmailInput) },
  responses: {
    200: jsonResponse(
      "Verified",
      messageDto.extend({ choosePassword: z.literal(true).optional().openapi({ description: "The address was signed up twice with different passwords: it is verified without one, and a reset code was sent to choose it (POST /api/users/reset-password)" }) }),
    ),
    400: errorResponse("Verification failed"),
    429: limited,
  },
});

const resendRoute = createRoute({
  method: "post",
  path: "/resend-verification",
  tags,
  summary: "Send a new verification code (same answer for every address)",
  request: { body: jsonBody(emailOnlyInput) },
  responses: { 200: jsonResponse("Sent if the account waits for verification", messageDto), 400: errorResponse("Invalid e-mail"), 429: limited },
});

const loginRoute = createRoute({
  method: "post",
  path: "/login",
  tags,
  summary: "Log in: returns an access token and sets the httpOnly refresh cookie",
  request: { body: jsonBody(loginInput) },
  responses: {
    200: jsonResponse("Logged in", loginDto),
    400: errorResponse("Missing fields"),
    401: errorResponse("The email or password is incorrect"),
    403: errorResponse("email_not_verified: the e-mail address is not verified yet"),
    429: limited,
  },
});

const refreshRoute = createRoute({
  method: "post",
  path: "/refresh-token",
  tags,
  summary: "A new access token from the refresh cookie, which is rotated",
  description: "Reusing a refresh token that was already rotated revokes that device's session. The Origin header must be this site.",
  responses: { 200: jsonResponse("New access token", tokenDto), 401: errorResponse("No valid session"), 403: errorResponse("Foreign origin") },
});

const logoutRoute = createRoute({
  method: "post",
  path: "/logout",
  tags,
  summary: "Sign this device out: revokes the session of its refresh cookie and of its access token, and clears the cookie",
  responses: { 200: jsonResponse("Signed out", messageDto), 403: errorResponse("Foreign origin") },
});

const forgotRoute = createRoute({
  method: "post",
  path: "/forgot-password",
  tags,
  summary: "E-mail a password reset code (same answer for every address)",
  request: { body: jsonBody(emailOnlyInput) },
  responses: { 200: jsonResponse("Password reset email sent. Please check your inbox.", messageDto), 400: errorResponse("Please enter your email."), 429: limited },
});

const resetRoute = createRoute({
  method: "post",
  path: "/reset-password",
  tags,
  summary: "Set a new password with the reset code; every session is revoked",
  request: { body: jsonBody(resetPasswordInput) },
  responses: { 200: jsonResponse("Reset Successful , Please Login", messageDto), 400: errorResponse("Error: Invalid Reset Code"), 429: limited },
});

export const usersAuthApi = createApi()
  .openapi(registerRoute, async (c) => c.json(await register(c.var.svc, c.req.valid("json")), 201))
  .openapi(verifyRoute, async (c) => c.json(await verifyEmail(c.var.svc, c.req.valid("json")), 200))
  .openapi(resendRoute, async (c) => c.json(await resendCode(c.var.svc, c.req.valid("json")), 200))
  .openapi(loginRoute, async (c) => {
    const { setCookie, locale: _locale, ...body } = await login(c.var.svc, c.req.valid("json"), clientInfo(c.req.raw));
    c.header("Set-Cookie", setCookie);
    return c.json(body, 200);
  })
  .openapi({ ...refreshRoute, middleware: [requireSameOrigin] }, async (c) => {
    const { setCookie, ...body } = await refresh(c.var.svc, refreshTokenFrom(c.req.raw), clientInfo(c.req.raw));
    c.header("Set-Cookie", setCookie);
    return c.json(body, 200);
  })
  .openapi({ ...logoutRoute, middleware: [requireSameOriginForCookie] }, async (c) => {
    // An API client that keeps no cookie signs out with its access token: the session the token names ends too.
    const { setCookies } = await logout(c.var.svc, refreshTokenFrom(c.req.raw), clientInfo(c.req.raw), c.req.header("authorization") ?? null);
    for (const cookie of setCookies) c.header("Set-Cookie", cookie, { append: true });
    return c.json({ message: "You are signed out." }, 200);
  })
  .openapi(forgotRoute, async (c) => c.json(await forgot(c.var.svc, c.req.valid("json"), statedLang(c.req.raw)), 200))
  .openapi(resetRoute, async (c) => c.json(await reset(c.var.svc, c.req.valid("json")), 200));
