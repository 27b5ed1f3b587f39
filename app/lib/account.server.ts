/**
 * The account screens' loader and action, shared by /profile, /dashboard/admin/profile-admin and
 * /instructor/setting. The routes call their own guard first and pass the viewer in; everything else (one's
 * profile, password, devices, deleting the account) is the same for every role.
 */
import { data, redirect } from "@remix-run/server-runtime";
import type { AccountIntent, AccountResult } from "~/components/account/types";
import type { MessageKey } from "~/i18n/en";
import { composePhone, countryById } from "~/lib/countries";
import { toLatinDigits } from "~/lib/digits";
import { changePasswordInput, deleteAccountInput, updateProfileInput } from "~/lib/schemas";
import { clientInfo } from "../../worker/auth/cookies";
import type { ServiceContext } from "../../worker/context";
import { listSessions, revokeSession, type Viewer } from "../../worker/services/sessions";
import { forgot } from "../../worker/services/accounts";
import { changePassword, deleteAccount, getProfile, updateProfile } from "../../worker/services/users";
import { expectedError, fieldErrors, messageKey, retryHeaders, type FieldErrors } from "./form-errors.server";

export type { AccountIntent, AccountResult } from "~/components/account/types";

/** The profile with groups, and the signed-in devices. */
export async function loadAccount(svc: ServiceContext, viewer: Viewer) {
  const [profile, devices] = await Promise.all([getProfile(svc, viewer), listSessions(svc, viewer)]);
  return { profile, devices };
}

export type AccountData = Awaited<ReturnType<typeof loadAccount>>;

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

function failed(intent: AccountIntent, errors: FieldErrors<string>, formError?: MessageKey, status = 400, headers?: HeadersInit) {
  return data<AccountResult>({ intent, ok: false, errors, formError }, { status, headers });
}

/** Runs one account form (by its `intent`) for the viewer. Deleting the account ends in a redirect home. */
export async function accountAction(svc: ServiceContext, viewer: Viewer, request: Request) {
  const form = await request.formData();
  const intent = text(form, "intent") as AccountIntent;
  try {
    switch (intent) {
      case "profile": {
        const country = countryById(text(form, "country"));
        const digits = toLatinDigits(text(form, "phone")).replace(/\D/g, "");
        const parsed = updateProfileInput.safeParse({
          name: text(form, "name"),
          phone_number: country && digits ? composePhone(country, digits) : "",
          country: country?.id ?? "",
        });
        if (!parsed.success) return failed(intent, fieldErrors(parsed.error));
        await updateProfile(svc, viewer, parsed.data);
        return data<AccountResult>({ intent, ok: true, errors: {} });
      }
      case "password": {
        const parsed = changePasswordInput.safeParse({ currentPassword: text(form, "currentPassword"), newPassword: text(form, "newPassword") });
        if (!parsed.success) return failed(intent, fieldErrors(parsed.error));
        await changePassword(svc, viewer, parsed.data);
        return data<AccountResult>({ intent, ok: true, errors: {} });
      }
      case "revoke": {
        await revokeSession(svc, viewer, text(form, "sessionId"));
        return data<AccountResult>({ intent, ok: true, errors: {} });
      }
      case "setPassword": {
        // An account made with Google has no password: the reset code e-mailed to its own address sets one.
        await forgot(svc, { email: viewer.email });
        return data<AccountResult>({ intent, ok: true, errors: {}, email: viewer.email });
      }
      case "delete": {
        const parsed = deleteAccountInput.safeParse({ password: text(form, "password") });
        if (!parsed.success) return failed(intent, fieldErrors(parsed.error));
        const { setCookies } = await deleteAccount(svc, viewer, parsed.data, clientInfo(request));
        throw redirect("/", { headers: setCookies.map((cookie): [string, string] => ["Set-Cookie", cookie]) });
      }
      default:
        return failed("profile", {}, "form.invalid");
    }
  } catch (err) {
    if (err instanceof Response) throw err;
    const e = expectedError(err);
    const errors = Object.fromEntries(Object.entries(e.fields ?? {}).map(([field, message]) => [field, messageKey(message, "form.invalid")]));
    const formError = Object.keys(errors).length > 0 ? undefined : messageKey(e.message, "account.failed");
    return failed(intent, errors, formError, e.status, retryHeaders(e));
  }
}
