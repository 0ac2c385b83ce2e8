// Loupe's API as the console calls it: the signed-in token on every call, errors as ApiError.
export const TOKEN_KEY = "loupe-token";
/** The signed-in team (set by the router from /api/whoami). */
export const session = { team: "" };

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}
export async function api(path, options = {}) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const headers = { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const response = await fetch(path, { ...options, headers });
  const text = await response.text();
  const body = text === "" ? {} : JSON.parse(text);
  if (!response.ok) throw new ApiError(response.status, body.error?.message ?? body.message ?? `HTTP ${response.status}`);
  return body;
}
export const teamPath = (rest) => `/api/teams/${encodeURIComponent(session.team)}/${rest}`;
