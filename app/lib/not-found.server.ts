import { AppError } from "../../worker/http/errors";

/** Turns a service's 404 into the route's 404 response; anything else is rethrown unchanged. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw notFoundResponse();
    throw err;
  }
}

export function notFoundResponse(): Response {
  return new Response(null, { status: 404, statusText: "Not Found" });
}
