// What the command palette offers beside going places: the commands of the page on screen (the
// incident page's "Post update", "Set status: Stable", ...). A page declares them while it is
// mounted; the palette reads whatever the pages on screen declare now.
import { useEffect, useRef, useSyncExternalStore } from 'react';

export interface Command {
  label: string;
  run: () => void;
}

const declared = new Map<symbol, () => Command[]>();
const listeners = new Set<() => void>();
let version = 0;
const changed = () => {
  version++;
  for (const listener of listeners) listener();
};

/** Declares the page's commands while it is mounted; `commands` is read when the palette opens, so it may close over the page's state. */
export function usePageCommands(commands: Command[]) {
  const latest = useRef(commands);
  latest.current = commands;
  useEffect(() => {
    const key = Symbol('page commands');
    declared.set(key, () => latest.current);
    changed();
    return () => {
      declared.delete(key);
      changed();
    };
  }, []);
}

/** The commands the pages on screen declare now. */
export function usePageCommandList(): () => Command[] {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  return () => [...declared.values()].flatMap((read) => read());
}
