/**
 * Remix reads every loader and action answer with turbo-stream's `decode`. When a navigation replaces a pending one,
 * the router aborts the old request while its body is still arriving; the decoder then rejects a promise nobody
 * awaits, which a browser reports as an uncaught "BodyStreamBuffer was aborted" (seen on the staff's task form after
 * Delete). The project's patch (patches/turbo-stream+*.patch, ADR 0057) marks that promise handled; the decoded value
 * and the `done` promise Remix reads still behave as before.
 */
import { decode, encode } from "turbo-stream";
import { afterEach, describe, expect, it } from "vitest";

const unhandled: unknown[] = [];
const onUnhandled = (event: PromiseRejectionEvent) => {
  unhandled.push(event.reason);
  event.preventDefault();
};

/** A body whose first line arrives and whose rest is cut off, as an aborted fetch's body is. */
function cutOffBody(firstLine: string): { body: ReadableStream<Uint8Array>; cut: () => void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(new TextEncoder().encode(`${firstLine}\n`));
    },
  });
  return { body, cut: () => controller.error(new DOMException("BodyStreamBuffer was aborted", "AbortError")) };
}

async function firstLineOf(value: unknown): Promise<string> {
  const text = await new Response(encode(value)).text();
  return text.split("\n")[0];
}

/** Lets the runtime deliver pending rejection events. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("turbo-stream's decoder when the body is cut off", () => {
  afterEach(() => {
    removeEventListener("unhandledrejection", onUnhandled);
    unhandled.length = 0;
  });

  it("leaves no unhandled rejection behind when nobody awaits `done` (Remix does not)", async () => {
    addEventListener("unhandledrejection", onUnhandled);
    const { body, cut } = cutOffBody(await firstLineOf({ root: { data: { title: "Week 1" } } }));
    const decoded = await decode(body);
    expect(decoded.value).toEqual({ root: { data: { title: "Week 1" } } });
    cut();
    await settle();
    expect(unhandled.map(String)).toEqual([]);
  });

  it("a whole body decodes as before", async () => {
    addEventListener("unhandledrejection", onUnhandled);
    const decoded = await decode(encode({ task: { slug: "doomed-task", deleted: true } }));
    expect(decoded.value).toEqual({ task: { slug: "doomed-task", deleted: true } });
    await decoded.done;
    await settle();
    expect(unhandled).toEqual([]);
  });
});
