// The command palette (Ctrl-K or Cmd-K): type a few letters of what to do and press Enter. It goes
// to any section, reports an incident, searches for what was typed, and runs the commands of the page
// on screen (the incident page's post update, set status, add note, add person).
import { Kbd, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { type KeyboardEvent, useState } from 'react';
import { type Command, usePageCommandList } from '../lib/commands.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  /** Always offered: the sections and reporting an incident. */
  places: Command[];
  /** Offered for what was typed: search for it. */
  search: (text: string) => void;
}

export function CommandPalette({ opened, onClose, places, search }: Props) {
  const [text, setText] = useState('');
  const [selected, setSelected] = useState(0);
  const pageCommands = usePageCommandList();
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const fits = (c: Command) => words.every((w) => c.label.toLowerCase().includes(w));
  const offered = [...pageCommands(), ...places].filter(fits);
  if (text.trim()) offered.push({ label: `Search for “${text.trim()}”`, run: () => search(text.trim()) });
  const at = Math.min(selected, Math.max(offered.length - 1, 0));

  const close = () => {
    setText('');
    setSelected(0);
    onClose();
  };
  const run = (command: Command | undefined) => {
    if (!command) return;
    close();
    // A task later: the modal's focus trap moves the focus into it a task after it opens, and a
    // command typed faster than that must not have its own focus ("Add note") taken back.
    setTimeout(command.run);
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setSelected((at + step + offered.length) % Math.max(offered.length, 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      run(offered[at]);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Commands" size="lg" returnFocus={false}>
      {/* Focused as it mounts: the modal's own focus comes a task later, and what is typed at once
          after Ctrl-K would be lost until then. */}
      <TextInput
        autoFocus
        data-autofocus
        label="What to do"
        placeholder="Post update, set status, go to cases…"
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setSelected(0);
        }}
        onKeyDown={onKey}
        role="combobox"
        aria-expanded
        aria-controls="command-list"
        aria-activedescendant={offered.length ? `command-${at}` : undefined}
        rightSection={<Kbd size="xs">↵</Kbd>}
      />
      <Stack id="command-list" role="listbox" aria-label="Commands" gap={2} mt="sm">
        {offered.map((command, i) => (
          <UnstyledButton
            key={command.label}
            id={`command-${i}`}
            role="option"
            aria-selected={i === at}
            tabIndex={-1}
            onClick={() => run(command)}
            onMouseEnter={() => setSelected(i)}
            px="sm"
            py={6}
            style={{
              borderRadius: 'var(--mantine-radius-sm)',
              background: i === at ? 'var(--mantine-primary-color-light)' : undefined,
              outline: i === at ? '2px solid var(--mantine-primary-color-filled)' : undefined,
            }}
          >
            <Text size="sm">{command.label}</Text>
          </UnstyledButton>
        ))}
        {offered.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing matches.
          </Text>
        ) : null}
      </Stack>
    </Modal>
  );
}
