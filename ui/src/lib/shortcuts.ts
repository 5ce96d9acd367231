// Keyboard shortcuts: single keys that act when no text field has the focus (`/` search, `n` new
// incident, `j`/`k` next/previous row, `Enter` open it, `?` the list of them).
import { useEffect, useRef } from 'react';

export type Shortcuts = Record<string, (event: KeyboardEvent) => void>;

const typing = (target: EventTarget | null) => {
  const el = target as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
};

export function useShortcuts(shortcuts: Shortcuts) {
  const ref = useRef(shortcuts);
  ref.current = shortcuts;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      if (document.querySelector('[role="dialog"]')) return;
      // Enter on a button or link is theirs.
      if (event.key === 'Enter' && (event.target as HTMLElement | null)?.closest?.('button, a, [role="button"]')) return;
      const action = ref.current[event.key];
      if (action) {
        event.preventDefault();
        action(event);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export const SHORTCUT_HELP: [string, string][] = [
  ['Ctrl K / ⌘ K', 'Commands: go to, post update, set status, add note, add person'],
  ['/', 'Search'],
  ['n', 'Report an incident'],
  ['j / k', 'Next / previous row'],
  ['Enter', 'Open the row'],
  ['g i', 'Incidents'],
  ['g c', 'Cases'],
  ['u', 'Incident page: post an update'],
  ['s', 'Incident page: focus the status'],
  ['t', 'Incident page: new task'],
  ['a', 'Incident page: add a note'],
  ['p', 'Incident page: add a person'],
  ['l', 'Incident page: open the timeline'],
  ['?', 'These shortcuts'],
];
