// The sign-in token, kept in localStorage so that every tab and reload shares one session.
const KEY = 'muster.token';

export const readToken = (): string | null => {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
};
export const saveToken = (token: string) => localStorage.setItem(KEY, token);
export const clearToken = () => localStorage.removeItem(KEY);

/** The claims of a JWT (not verified: the server does that); null when it is not one. */
export function tokenClaims(token: string | null): { email?: string; exp?: number } | null {
  if (!token) return null;
  try {
    const part = token.split('.')[1];
    return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return null;
  }
}

export const tokenExpired = (token: string | null, now = Date.now()) => {
  const exp = tokenClaims(token)?.exp;
  return !token || (exp !== undefined && exp * 1000 <= now);
};
