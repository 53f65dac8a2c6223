/** What of a link the browser resolved, and of the click on it, decides who follows it. */
export interface ClickedLink {
  target: string;
  origin: string;
  pathname: string;
  search: string;
  hash: string;
}

export interface ClickKeys {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * The path to hand to Remix's navigate for a plain click on a link of this app, or null for the
 * browser to follow it itself: another origin, another window or tab (a target, a modifier key, a
 * middle click). A path that starts "//" is another host to the router (its fallback would leave
 * for it), so the browser takes it, as a path on this origin.
 */
export function inAppPath(link: ClickedLink, click: ClickKeys, origin: string): string | null {
  if (link.target || link.origin !== origin || link.pathname.startsWith("//")) return null;
  if (click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return null;
  return `${link.pathname}${link.search}${link.hash}`;
}
