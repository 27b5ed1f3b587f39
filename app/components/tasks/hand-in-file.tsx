import { useEffect, useState } from "react";
import { localeOf, type Lang } from "~/i18n/config";
import { numberFormat } from "~/lib/intl-cache";
import { useT } from "~/lib/i18n";

export interface HandInFileInfo {
  name: string;
  type: string;
  size: number;
}

/** A file's size in the reader's words ("150 kB", "150 كيلوبايت"), whole kilobytes or megabytes to a tenth. */
function sizeText(bytes: number, lang: Lang): string {
  const mega = bytes >= 1024 * 1024;
  const value = mega ? bytes / 1024 / 1024 : Math.max(1, Math.round(bytes / 1024));
  // Arabic has no short forms everyone reads ("م.ب"): its units are written out.
  return numberFormat(localeOf(lang), { style: "unit", unit: mega ? "megabyte" : "kilobyte", unitDisplay: lang === "ar" ? "long" : "short", maximumFractionDigits: mega ? 1 : 0 }).format(value);
}

/**
 * A file hand-in (issue 21): its name and size with a download link, and with `preview` (the grader) the file itself:
 * an image, a PDF in a frame, or text in a <pre>. The file comes from the site's file route, sandboxed and never as
 * HTML (worker/http/hand-in-file.ts).
 */
export function HandInFile({ file, url, preview = false }: { file: HandInFileInfo; url: string; preview?: boolean }) {
  const { t, lang } = useT();
  const kind = file.type.startsWith("image/") ? "image" : file.type === "application/pdf" ? "pdf" : file.type.startsWith("text/") ? "text" : "zip";
  return (
    <div className="hand-in-file">
      <p className="hand-in-file-head">
        <a href={url} download={file.name} className="hand-in-file-link" dir="auto">
          {file.name}
        </a>
        <span className="muted">
          {" · "}
          <bdi>{sizeText(file.size, lang)}</bdi>
        </span>
      </p>
      {preview && kind === "image" ? <img className="hand-in-preview" src={`${url}?inline=1`} alt={t("tasks.filePreview", { name: file.name })} loading="lazy" /> : null}
      {preview && kind === "pdf" ? <iframe className="hand-in-preview hand-in-pdf" src={`${url}?inline=1`} title={t("tasks.filePreview", { name: file.name })} loading="lazy" /> : null}
      {preview && kind === "text" ? <TextPreview url={url} name={file.name} /> : null}
    </div>
  );
}

/** A text hand-in read as text (first 200 KB), shown as code: never rendered as a page. */
function TextPreview({ url, name }: { url: string; name: string }) {
  const { t } = useT();
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setText(null);
    setFailed(false);
    fetch(`${url}?inline=1`, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
      .then((body) => live && setText(body.slice(0, 200 * 1024)))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [url]);
  if (failed) return <p className="form-error">{t("tasks.filePreviewFailed")}</p>;
  if (text === null) return <p className="muted" aria-busy="true">{t("tasks.filePreviewLoading")}</p>;
  return (
    <pre className="code-block hand-in-text" dir="ltr" aria-label={t("tasks.filePreview", { name })} tabIndex={0} data-scroll-stop="">
      <code>{text}</code>
    </pre>
  );
}
