import { useFetcher, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { FormAlert, PasswordField } from "~/components/form-field";
import { TrashIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";
import { endingSession } from "~/lib/session-client";
import type { AccountResult } from "./types";
import { useAccountResult } from "./use-account-result";
import { focusRefused } from "~/lib/focus";

/**
 * Delete one's own account: the password, asked inside a confirmation dialog. On success the action signs
 * this device out and sends the person home.
 */
export function DeleteAccount({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useT();
  const fetcher = useFetcher<AccountResult>({ key: "account-delete" });
  const [open, setOpen] = useState(false);
  const [missing, setMissing] = useState(false);

  // The session ends only if the deletion takes the person away (its answer is a redirect home). A request that
  // fails without an answer (the network, a 5xx) shows an error screen instead, which unmounts this form: the
  // session goes on then, and the page's widgets must be able to ask the API again.
  const navigation = useNavigation();
  /** A deletion was sent and has not been refused. */
  const submitted = useRef(false);
  /** ...and its answer is taking the person away. */
  const leaving = useRef(false);

  useAccountResult(fetcher, (result) => {
    if (result.ok) return;
    // Refused (a wrong password): the session goes on.
    submitted.current = false;
    endingSession(false);
    focusRefused(document.getElementById("delete-password"));
  });

  useEffect(() => {
    if (submitted.current && fetcher.state !== "idle" && navigation.state === "loading") leaving.current = true;
  }, [fetcher.state, navigation.state]);
  useEffect(
    () => () => {
      if (submitted.current && !leaving.current) endingSession(false);
    },
    [],
  );

  const error = missing ? "form.passwordRequired" : fetcher.data && !fetcher.data.ok && fetcher.state === "idle" ? (fetcher.data.errors.password ?? fetcher.data.formError) : undefined;

  return (
    <section className="card account-card account-danger" aria-labelledby="delete-title">
      <h2 id="delete-title" className="account-card-title">
        <TrashIcon />
        {t("account.delete.title")}
      </h2>
      <p className="muted">{t("account.delete.lead")}</p>
      {hasPassword ? null : <p className="muted">{t("account.delete.noPassword")}</p>}
      <button type="button" className="btn btn-danger-outline" onClick={() => setOpen(true)} disabled={!hasPassword}>
        {t("account.delete.open")}
      </button>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title={t("account.delete.confirmTitle")}
        confirmLabel={t("account.delete.confirm")}
        form="delete-account-form"
        busy={fetcher.state !== "idle"}
        danger
      >
        <p>{t("account.delete.confirmBody")}</p>
        <fetcher.Form
          method="post"
          id="delete-account-form"
          noValidate
          className="form-fields"
          onSubmit={(e) => {
            const password = String(new FormData(e.currentTarget).get("password") ?? "");
            setMissing(!password);
            if (!password) {
              e.preventDefault();
              focusRefused(document.getElementById("delete-password"));
              return;
            }
            // On success the action signs this device out and sends the person home: what the widgets ask
            // meanwhile is answered 401, which must not send them to log in instead (session-client.ts).
            submitted.current = true;
            leaving.current = false;
            endingSession(true);
          }}
        >
          <input type="hidden" name="intent" value="delete" />
          <PasswordField id="delete-password" name="password" label={t("auth.field.password")} autoComplete="current-password" required error={error && error !== fetcher.data?.formError ? t(error) : null} />
          {error && error === fetcher.data?.formError ? <FormAlert attempt={fetcher.data}>{t(error)}</FormAlert> : null}
        </fetcher.Form>
      </ConfirmDialog>
    </section>
  );
}
