/**
 * The header's slot for signed-in widgets (the notifications bell). Rendered only for a signed-in viewer,
 * between the language switcher and "Log out", in the desktop bar and in the mobile menu alike.
 * It renders nothing until a widget is added here.
 */
export function HeaderExtras() {
  return null;
}
