import { useQuery } from "@tanstack/react-query";
import { api } from "./client";
import type {
  CustomField,
  FieldEntity,
  Member,
  Page,
  SavedReply,
  Tag,
  TagGroup,
  Team,
  Ticket,
  TicketCounts,
  View,
  Workspace,
} from "./types";

/** Lists that answer either a bare array or a page: the web app takes both. */
export const listOf = <T>(body: T[] | Page<T>): T[] => (Array.isArray(body) ? body : body.data);

const settingsQuery =
  <T>(key: string, path: string) =>
  () =>
    useQuery({ queryKey: [key], queryFn: async () => listOf(await api<T[] | Page<T>>(path)), staleTime: 30_000 });

export const useMembers = settingsQuery<Member>("members", "/members");
export const useTeams = settingsQuery<Team>("teams", "/teams");
export const useTags = settingsQuery<Tag>("tags", "/tags");
export const useTagGroups = settingsQuery<TagGroup>("tag-groups", "/tag-groups");
export const useViews = settingsQuery<View>("views", "/views");
export const useSavedReplies = settingsQuery<SavedReply>("saved-replies", "/saved-replies");
const useAllFields = settingsQuery<CustomField>("custom-fields", "/custom-fields");

export function useCustomFields(entity: FieldEntity) {
  const query = useAllFields();
  return { ...query, data: query.data?.filter((f) => f.entity === entity && !f.archived) };
}

/**
 * A contact's tickets as an array. The ticket sidebar and the contact page share this cache entry,
 * so both must store the same shape under ["contact-tickets", id] (they once stored different
 * ones and the contact page crashed on the sidebar's).
 */
export function useContactTickets(contactId: string) {
  return useQuery({
    queryKey: ["contact-tickets", contactId],
    queryFn: async () => listOf(await api<Ticket[] | Page<Ticket>>(`/contacts/${contactId}/tickets`)),
  });
}

export function useCounts() {
  return useQuery({ queryKey: ["counts"], queryFn: () => api<TicketCounts>("/tickets/counts"), staleTime: 10_000 });
}

export type InstanceStatus = { signup_open: boolean; has_users: boolean };

/** GET /v1/auth/status: a fresh instance (no user yet) opens on setup, any other on sign-in. */
export function useInstanceStatus(enabled = true) {
  return useQuery({
    queryKey: ["instance-status"],
    queryFn: () => api<InstanceStatus>("/auth/status", { workspace: false }),
    enabled,
    staleTime: 60_000,
  });
}

export function useWorkspace() {
  return useQuery({ queryKey: ["workspace"], queryFn: () => api<Workspace>("/workspace"), staleTime: 60_000 });
}
