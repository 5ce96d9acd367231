// Who is signed in, to which organization: the organization is the first segment of every page's
// path (`/default/incidents`), as in Dispatch's UI and in the links Muster writes into chat and mail.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, orgPath } from './client.ts';
import { clearToken, readToken, tokenClaims } from './token.ts';

export interface Me {
  id: number;
  email: string;
  role: string | null;
  projects: { project: { id: number; name: string }; default: boolean; role: string | null }[];
}

export const ROLE_RANK: Record<string, number> = { Member: 1, Admin: 2, Manager: 3, Owner: 4 };

export function useOrganization(): string {
  return useParams().organization ?? 'default';
}

export function useSession() {
  const organization = useOrganization();
  const token = readToken();
  const me = useQuery({
    queryKey: [organization, 'me', token],
    queryFn: ({ signal }) => api<Me>(orgPath(organization, '/auth/me'), { signal }),
    enabled: !!token,
    staleTime: 60_000,
  });
  const role = useQuery({
    queryKey: [organization, 'myrole', token],
    queryFn: ({ signal }) => api<string>(orgPath(organization, '/auth/myrole'), { signal }),
    enabled: !!token,
    staleTime: 60_000,
  });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useCallback(() => {
    clearToken();
    queryClient.clear();
    navigate(`/${organization}/auth/login`);
  }, [organization, queryClient, navigate]);
  const roleName = role.data ?? me.data?.role ?? null;
  return {
    organization,
    token,
    email: me.data?.email ?? tokenClaims(token)?.email ?? null,
    me: me.data,
    role: roleName,
    /** At least Admin: may change settings and other people's records. */
    isAdmin: (ROLE_RANK[roleName ?? ''] ?? 0) >= ROLE_RANK.Admin,
    signOut,
  };
}
