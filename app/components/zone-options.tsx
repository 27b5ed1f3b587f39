import { useT } from "~/lib/i18n";
import { zoneLabel, type ZoneChoice } from "~/lib/time-zones";

/** The `<option>`s of a time-zone picker: each zone's city in the reader's language and its offset from UTC. */
export function ZoneOptions({ zones }: { zones: ZoneChoice[] }) {
  const { t } = useT();
  return (
    <>
      {zones.map((z) => (
        <option key={z.id} value={z.id}>
          {zoneLabel(t, z.id, z.offsetMinutes)}
        </option>
      ))}
    </>
  );
}
