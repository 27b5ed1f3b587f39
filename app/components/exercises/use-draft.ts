import { useCallback, useEffect, useRef, useState } from "react";
import { keep, readKept } from "~/lib/kept-locally";

/** A failed save is retried this often (and at once when the browser is back online). */
const RETRY_MS = 5_000;
/** Saved about a second after the last keystroke, like quiz answers. */
const DEBOUNCE_MS = 1_000;

/** "unchanged": nothing typed yet on this page, so there is nothing to report as saved. */
export type DraftStatus = "unchanged" | "saved" | "saving" | "offline" | "error";

const storageKey = (taskId: string) => `cohort.exercise.${taskId}`;

const readStored = (taskId: string) => readKept<{ code: string; pending: boolean }>(storageKey(taskId));
const writeStored = (taskId: string, code: string, pending: boolean) => keep(storageKey(taskId), { code, pending });

/**
 * The student's code as a draft kept in two places besides the page: the browser's storage at every change (so a
 * reload or a crash while offline loses nothing) and the server, about a second after the last change, retried
 * until it is acknowledged. On arrival, code this browser kept but the server never acknowledged wins. With no
 * `saveUrl` (an ended course takes no drafts) the code is kept in the browser only.
 */
export function useDraft(taskId: string, saveUrl: string | null, initial: string) {
  const [code, setCode] = useState(initial);
  const [status, setStatus] = useState<DraftStatus>("unchanged");
  const [problem, setProblem] = useState("");
  const latest = useRef(initial);
  const acknowledged = useRef(initial);
  const timer = useRef<number | undefined>(undefined);
  const inFlight = useRef(false);

  const save = useCallback(async () => {
    if (inFlight.current) {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void save(), 300);
      return;
    }
    const snapshot = latest.current;
    if (snapshot === acknowledged.current) {
      setStatus("saved");
      return;
    }
    if (!saveUrl) return;
    inFlight.current = true;
    let res: Response | null = null;
    let body: { code?: string; message?: string } = {};
    try {
      res = await fetch(saveUrl, { method: "POST", body: new URLSearchParams({ intent: "draft", code: snapshot }), headers: { accept: "application/json" }, credentials: "same-origin" });
      body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    } catch {
      res = null;
    }
    inFlight.current = false;
    if (!res || res.status >= 500) {
      setStatus("offline");
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void save(), RETRY_MS);
      return;
    }
    if (res.ok) {
      acknowledged.current = snapshot;
      if (latest.current === snapshot) {
        setStatus("saved");
        writeStored(taskId, snapshot, false);
      }
      return;
    }
    setStatus("error");
    // The page words the usual refusals itself; anything else shows the server's message.
    setProblem(body.code === "validation_failed" ? "too-long" : body.code === "unauthorized" ? "signed-out" : (body.message ?? ""));
  }, [saveUrl, taskId]);

  const change = useCallback(
    (next: string) => {
      latest.current = next;
      setCode(next);
      writeStored(taskId, next, true);
      if (!saveUrl) return;
      setStatus("saving");
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void save(), DEBOUNCE_MS);
    },
    [save, taskId]
  );

  /** After a hand-in the server holds this code as the draft too. */
  const markSaved = useCallback(
    (handedIn: string) => {
      acknowledged.current = handedIn;
      if (latest.current === handedIn) {
        setStatus("saved");
        writeStored(taskId, handedIn, false);
      }
    },
    [taskId]
  );

  useEffect(() => {
    const stored = readStored(taskId);
    if (stored?.pending && stored.code !== latest.current) {
      latest.current = stored.code;
      setCode(stored.code);
      if (saveUrl) {
        setStatus("saving");
        timer.current = window.setTimeout(() => void save(), 0);
      }
    }
    const online = () => {
      if (latest.current !== acknowledged.current) void save();
    };
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      window.clearTimeout(timer.current);
    };
  }, [save, taskId]);

  return { code, change, status, problem, markSaved };
}
