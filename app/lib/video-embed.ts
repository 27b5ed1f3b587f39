/**
 * A lecture's video link as an embeddable player, where the link allows it: YouTube through its privacy-enhanced
 * host (youtube-nocookie.com) and Vimeo with Do Not Track (dnt=1). Anything else (another host, a channel or
 * playlist page, a malformed or non-http(s) link, a link with credentials or a port) is not embedded: the page
 * shows the plain link. The Content-Security-Policy's frame-src allows exactly VIDEO_FRAME_ORIGINS besides Google
 * sign-in (worker/http/security-headers.ts). Client-safe: no server imports.
 */

export type VideoProvider = "YouTube" | "Vimeo";

export interface VideoEmbed {
  provider: VideoProvider;
  /** The player's address, always on one of VIDEO_FRAME_ORIGINS; the page adds autoplay when it is loaded by a click. */
  src: string;
}

/** The only origins a lecture page may frame (the policy's frame-src lists these and Google sign-in, nothing else). */
export const VIDEO_FRAME_ORIGINS = ["https://www.youtube-nocookie.com", "https://player.vimeo.com"] as const;

const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com", "youtube-nocookie.com", "www.youtube-nocookie.com"]);
const VIMEO_HOSTS = new Set(["vimeo.com", "www.vimeo.com", "player.vimeo.com"]);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const VIMEO_HASH = /^[0-9a-f]{6,32}$/i;
/** The longest start offset passed on (a day): beyond that the parameter is dropped, not the embed. */
const MAX_START_SECONDS = 24 * 3600;

/** A YouTube start offset (`90`, `90s`, `1m30s`, `1h2m3s`) in whole seconds, or null. */
function startSeconds(value: string | null): number | null {
  if (!value) return null;
  const m = /^(?:(\d{1,2})h)?(?:(\d{1,4})m)?(?:(\d{1,5})s?)?$/.exec(value);
  if (!m || (!m[1] && !m[2] && !m[3])) return null;
  const seconds = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  return seconds > 0 && seconds <= MAX_START_SECONDS ? seconds : null;
}

function youtubeId(url: URL): string | null {
  const parts = url.pathname.split("/").filter(Boolean);
  if (url.hostname === "youtu.be") return parts.length === 1 ? parts[0]! : null;
  if (!YOUTUBE_HOSTS.has(url.hostname)) return null;
  if (parts.length === 1 && parts[0] === "watch") return url.searchParams.get("v");
  if (parts.length === 2 && ["embed", "shorts", "live", "v"].includes(parts[0]!)) return parts[1]!;
  return null;
}

function vimeo(url: URL): { id: string; hash: string | null } | null {
  if (!VIMEO_HOSTS.has(url.hostname)) return null;
  const parts = url.pathname.split("/").filter(Boolean);
  if (url.hostname === "player.vimeo.com") {
    return parts.length === 2 && parts[0] === "video" ? { id: parts[1]!, hash: url.searchParams.get("h") } : null;
  }
  // vimeo.com/ID, vimeo.com/ID/HASH (an unlisted video), vimeo.com/channels/NAME/ID, vimeo.com/groups/NAME/videos/ID.
  if (parts.length === 1) return { id: parts[0]!, hash: url.searchParams.get("h") };
  if (parts.length === 2 && VIMEO_ID.test(parts[0]!)) return { id: parts[0]!, hash: parts[1]! };
  if (parts.length === 3 && parts[0] === "channels") return { id: parts[2]!, hash: null };
  if (parts.length === 4 && parts[0] === "groups" && parts[2] === "videos") return { id: parts[3]!, hash: null };
  return null;
}

/** The embeddable player of a video link, or null when the link stays a plain link. */
export function videoEmbed(link: string | null | undefined): VideoEmbed | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.port) return null;

  const yt = youtubeId(url);
  if (yt !== null) {
    if (!YOUTUBE_ID.test(yt)) return null;
    const start = startSeconds(url.searchParams.get("t") ?? url.searchParams.get("start"));
    return { provider: "YouTube", src: `${VIDEO_FRAME_ORIGINS[0]}/embed/${yt}?rel=0${start ? `&start=${start}` : ""}` };
  }
  const vm = vimeo(url);
  if (vm) {
    if (!VIMEO_ID.test(vm.id) || (vm.hash !== null && !VIMEO_HASH.test(vm.hash))) return null;
    return { provider: "Vimeo", src: `${VIDEO_FRAME_ORIGINS[1]}/video/${vm.id}?dnt=1${vm.hash ? `&h=${vm.hash}` : ""}` };
  }
  return null;
}
