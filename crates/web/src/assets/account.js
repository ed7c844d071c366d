// The account page ("/account", or "/account?next=/path"): sign in or sign up, and
// once signed in, sign out and the personal tokens (listed, made with a label, the
// secret shown once, revoked). Signing in or up leads back to `next`, a path of this
// site only. Every refusal is said in the server's own words; names and labels are set
// as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);

/// The server's JSON (null for an answer without a body), or an Error in its words
/// with `status` (0: no answer) and `retryAfter` (seconds, when it says).
async function ask(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw refusal("the server cannot be reached", 0);
  }
  const json = response.status === 204 ? null : await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = refusal((json && json.error) || `the server answered ${response.status}`, response.status);
    error.retryAfter = Number(response.headers.get("Retry-After")) || 0;
    throw error;
  }
  return json;
}

function refusal(message, status) {
  const error = new Error(message);
  error.status = status;
  return error;
}

/// Where to go once signed in: `?next=`, if it is a path of this site (never another
/// site's address, nor this page again).
function nextPath() {
  const next = new URLSearchParams(location.search).get("next");
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return null;
  try {
    const url = new URL(next, location.origin);
    if (url.origin !== location.origin || url.pathname === "/account") return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}

// ---- Signed out: sign in, sign up -------------------------------------------------

function showSignedOut() {
  $("signed-in").hidden = true;
  $("signed-out").hidden = false;
  document.title = "Sign in · Tic Tac Toe";
  showAccount(null);
}

/// Sends `form`'s name and password to `path` (sign in, or sign up): signed in, goes on
/// to `next`, or shows the account. A refusal is said under the form; too many tries
/// keep its button off for as long as the server says.
async function credentials(form, path, errorId) {
  const button = form.querySelector("button[type=submit]");
  const error = $(errorId);
  error.textContent = "";
  button.disabled = true;
  let retryAfter = 0;
  try {
    const account = await ask("POST", path, {
      name: form.elements.name.value,
      password: form.elements.password.value,
    });
    form.reset();
    showAccount(account.name);
    const next = nextPath();
    if (next) {
      location.assign(next);
      return;
    }
    await showSignedIn(account.name);
    $("account-status").textContent =
      path === "/api/accounts" ? `Welcome, ${account.name}: your account is made.` : `Signed in as ${account.name}.`;
  } catch (failure) {
    error.textContent = failure.message;
    retryAfter = failure.status === 429 ? failure.retryAfter : 0;
    // The field to put right: the password after a wrong pair, or the name refused.
    const field = failure.status === 401 || /password/.test(failure.message)
      ? form.elements.password
      : form.elements.name;
    field.focus();
  } finally {
    if (retryAfter > 0) {
      // Off for as long as the server says, for this name: another name may be tried.
      const name = form.elements.name.value;
      const again = () => {
        clearTimeout(timer);
        form.elements.name.removeEventListener("input", changed);
        button.disabled = false;
      };
      const changed = () => {
        if (form.elements.name.value !== name) again();
      };
      const timer = setTimeout(again, retryAfter * 1000);
      form.elements.name.addEventListener("input", changed);
    } else {
      button.disabled = false;
    }
  }
}

// ---- Signed in: the account and its tokens ----------------------------------------

async function showSignedIn(name) {
  $("signed-out").hidden = true;
  $("signed-in").hidden = false;
  $("signed-in-as").textContent = `Signed in as ${name}`;
  document.title = `${name} · Account · Tic Tac Toe`;
  $("my-page").href = `/players/${encodeURIComponent(name)}`;
  const next = nextPath();
  $("continue").hidden = !next;
  if (next) {
    $("continue-link").href = next;
    $("continue-link").textContent = "Continue where you were";
  }
  await listTokens();
}

function dateWords(rfc3339) {
  const when = new Date(rfc3339);
  return Number.isNaN(when.getTime())
    ? rfc3339
    : when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

async function listTokens() {
  let answer;
  try {
    answer = await ask("GET", "/api/tokens");
  } catch (failure) {
    if (failure.status === 401) {
      showSignedOut();
      return;
    }
    $("token-error").textContent = `Your tokens could not be read: ${failure.message}`;
    return;
  }
  const items = answer.tokens.map((token) => {
    const item = document.createElement("li");
    const what = document.createElement("span");
    what.className = "token-label";
    what.textContent = token.label || "(no label)";
    const when = document.createElement("span");
    when.className = "token-date";
    when.textContent = `made ${dateWords(token.created)}`;
    const revoke = document.createElement("button");
    revoke.type = "button";
    revoke.textContent = "Revoke";
    revoke.setAttribute("aria-label", `Revoke ${token.label || "the token without a label"}`);
    revoke.addEventListener("click", () => revokeToken(token, revoke));
    const words = document.createElement("span");
    words.className = "token-words";
    words.append(what, when);
    item.append(words, revoke);
    return item;
  });
  $("tokens").replaceChildren(...items);
  $("no-tokens").hidden = items.length > 0;
}

async function makeToken(form) {
  const button = form.querySelector("button[type=submit]");
  $("token-error").textContent = "";
  button.disabled = true;
  try {
    const label = form.elements.label.value.trim();
    const made = await ask("POST", "/api/tokens", { label });
    form.reset();
    $("made-what").textContent = made.label ? `Your new token “${made.label}”` : "Your new token";
    $("made-secret").textContent = made.token;
    $("made-token").hidden = false;
    $("token-status").textContent = "Copy it now: it will not be shown again.";
    $("copy-token").focus();
    await listTokens();
  } catch (failure) {
    if (failure.status === 401) {
      showSignedOut();
      return;
    }
    $("token-error").textContent = failure.message;
  } finally {
    button.disabled = false;
  }
}

async function revokeToken(token, button) {
  button.disabled = true;
  $("token-error").textContent = "";
  try {
    await ask("DELETE", `/api/tokens/${token.id}`);
    $("account-status").textContent =
      `${token.label ? `The token “${token.label}”` : "The token"} is revoked: it opens nothing any more.`;
  } catch (failure) {
    if (failure.status === 401) {
      showSignedOut();
      return;
    }
    if (failure.status !== 404) $("token-error").textContent = failure.message;
  }
  await listTokens();
}

/// The new token's secret, copied; where the page may not (no secure context), left
/// selected with how to copy it.
async function copyToken() {
  const secret = $("made-secret");
  try {
    await navigator.clipboard.writeText(secret.textContent);
    $("token-status").textContent = "Copied. It will not be shown again: keep it somewhere safe.";
  } catch {
    const range = document.createRange();
    range.selectNodeContents(secret);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    $("token-status").textContent =
      "Selected: press Ctrl-C (or ⌘-C) to copy it. It will not be shown again.";
  }
}

function hideToken() {
  $("made-secret").textContent = "";
  $("token-status").textContent = "";
  $("made-token").hidden = true;
}

async function signOut() {
  const button = $("sign-out");
  button.disabled = true;
  try {
    await ask("DELETE", "/api/session");
    hideToken();
    $("tokens").replaceChildren();
    showSignedOut();
    $("sign-in-error").textContent = "";
    $("signed-out-status").textContent = "Signed out.";
    $("sign-in").elements.name.focus();
  } catch (failure) {
    $("account-status").textContent = `Not signed out: ${failure.message}`;
  } finally {
    button.disabled = false;
  }
}

// The script is deferred: the page is there.
{
  $("sign-in").addEventListener("submit", (event) => {
    event.preventDefault();
    credentials(event.target, "/api/session", "sign-in-error");
  });
  $("sign-up").addEventListener("submit", (event) => {
    event.preventDefault();
    credentials(event.target, "/api/accounts", "sign-up-error");
  });
  $("new-token").addEventListener("submit", (event) => {
    event.preventDefault();
    makeToken(event.target);
  });
  $("copy-token").addEventListener("click", copyToken);
  $("hide-token").addEventListener("click", hideToken);
  $("sign-out").addEventListener("click", signOut);
  signedIn.then((account) => {
    if (account.name) {
      showSignedIn(account.name);
    } else {
      showSignedOut();
      if (account.unknown) {
        $("sign-in-error").textContent = "The server cannot say now whether you are signed in: try again in a moment.";
      }
    }
  });
}
