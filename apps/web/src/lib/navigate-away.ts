/** Leaves the app for another site (the OAuth dialog); one place, so tests can replace it. */
export function navigateAway(url: string) {
  window.location.assign(url);
}
