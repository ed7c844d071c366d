// Who is signed in, asked once per page (GET /api/session), and the header's account
// link: "Sign in" (which comes back to this page afterwards) or the account's name,
// leading to /account. Loaded first on every page: the page's own script awaits
// `signedIn` rather than asking again. The session itself is a cookie no script
// reads (HttpOnly); the server says whose it is.
"use strict";

/// The account: `{ name }` when signed in, `{ name: null }` when not, and
/// `{ name: null, unknown: true }` when the server could not say (unreachable, or its
/// store down): then the page acts as for a visitor, and the header says nothing new.
const signedIn = (async () => {
  try {
    const response = await fetch("/api/session");
    if (response.status === 401) return { name: null };
    if (!response.ok) return { name: null, unknown: true };
    const account = await response.json();
    return { name: account.name || null };
  } catch {
    return { name: null, unknown: true };
  }
})();

/// The address of the account page that comes back to `next` (this page unless told)
/// once signed in.
function signInPath(next = location.pathname + location.search) {
  return next === "/account" || next.startsWith("/account?")
    ? "/account"
    : `/account?next=${encodeURIComponent(next)}`;
}

/// The header's link for `name` signed in (null: nobody).
function showAccount(name) {
  const link = document.getElementById("account-link");
  if (!link) return;
  if (name) {
    link.textContent = name;
    link.href = "/account";
    link.setAttribute("aria-label", `${name}: your account`);
    link.classList.add("signed-in");
  } else {
    link.textContent = "Sign in";
    link.href = signInPath();
    link.removeAttribute("aria-label");
    link.classList.remove("signed-in");
  }
}

{
  // The header's link to the page it is on says so to screen readers.
  const here = location.pathname;
  for (const link of document.querySelectorAll(".top nav a")) {
    if (new URL(link.href).pathname === here) link.setAttribute("aria-current", "page");
  }
  signedIn.then((account) => {
    if (!account.unknown) showAccount(account.name);
  });
}
