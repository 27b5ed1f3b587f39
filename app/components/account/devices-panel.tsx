import { useFetcher, type FetcherWithComponents } from "@remix-run/react";
import { useState } from "react";
import { DeviceIcon } from "~/components/icons";
import { formatDate, useT } from "~/lib/i18n";
import { describeDevice } from "~/lib/user-agent";
import type { Notify } from "./profile-forms";
import type { AccountResult } from "./types";
import { useAccountResult } from "./use-account-result";

export interface Device {
  id: string;
  userAgent: string | null;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}

function DeviceRow({ device, fetcher }: { device: Device; fetcher: FetcherWithComponents<AccountResult> }) {
  const { t, lang } = useT();
  const { browser, os } = describeDevice(device.userAgent);
  const name =
    browser && os ? t("account.devices.name", { browser, os }) : browser ?? os ?? t("account.devices.unknown");
  const labelId = `device-${device.id}`;
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("sessionId") === device.id;

  return (
    <li className="device-row" data-current={device.current || undefined}>
      <span className="device-icon" aria-hidden="true">
        <DeviceIcon />
      </span>
      <div className="device-info">
        <p id={labelId} className="device-name">
          {name} {device.current ? <span className="badge">{t("account.devices.this")}</span> : null}
        </p>
        <p className="device-meta">
          {t("account.devices.lastUsed", { date: formatDate(device.lastUsedAt, lang) })} · {t("account.devices.since", { date: formatDate(device.createdAt, lang) })}
        </p>
      </div>
      {device.current ? null : (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="revoke" />
          <input type="hidden" name="sessionId" value={device.id} />
          <button type="submit" className="btn btn-outline btn-sm" aria-describedby={labelId} disabled={busy}>
            {t("account.devices.signOut")}
          </button>
        </fetcher.Form>
      )}
    </li>
  );
}

/** How many devices show before "Show all". */
const FIRST_DEVICES = 5;

/** The devices signed in to this account, this one first and marked; any other can be signed out. */
export function DevicesPanel({ devices, notify }: { devices: Device[]; notify: Notify }) {
  const { t } = useT();
  const [all, setAll] = useState(false);
  // One fetcher for every row: it lives in the panel, so its answer arrives even though the signed-out
  // device's row is gone from the reloaded list by then.
  const fetcher = useFetcher<AccountResult>({ key: "account-revoke" });
  useAccountResult(fetcher, (result) => {
    if (result.ok) notify("success", t("account.devices.signedOut"));
    else notify("error", t(result.formError ?? "account.failed"));
  });
  const ordered = [...devices].sort((a, b) => Number(b.current) - Number(a.current));
  const shown = all ? ordered : ordered.slice(0, FIRST_DEVICES);
  return (
    <section className="card account-card" aria-labelledby="devices-title">
      <h2 id="devices-title" className="account-card-title">
        <DeviceIcon />
        {t("account.devices.title")}
      </h2>
      <p className="muted">{t("account.devices.lead")}</p>
      <ul role="list" className="device-list" id="device-list">
        {shown.map((d) => (
          <DeviceRow key={d.id} device={d} fetcher={fetcher} />
        ))}
      </ul>
      {ordered.length > FIRST_DEVICES ? (
        <button type="button" className="link-button" aria-expanded={all} aria-controls="device-list" onClick={() => setAll((v) => !v)}>
          {all ? t("account.devices.showFewer") : t("account.devices.showAll", { count: ordered.length })}
        </button>
      ) : null}
    </section>
  );
}
