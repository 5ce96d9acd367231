// The create/edit form of a declared section: one input per declared field, the body checked
// against the group's own Create or Update shape before it is sent (nothing is sent while it does
// not pass), the API's `detail` shown when it refuses.
import { Button, ColorInput, Group, NumberInput, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller, type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { api, orgPath } from '../../../api/client.ts';
import { useOrganization } from '../../../api/session.ts';
import { ErrorAlert } from '../../../components/Feedback.tsx';
import { shapeResolver } from '../../../lib/form.ts';
import { bodyOf, type FormValues, fieldsFor, initialValues, type Mode, pickedId, requiredIn } from './body.ts';
import type { FieldDecl, Row, SectionDecl } from './declaration.ts';
import { ProjectPicker, RecordPicker } from './Pickers.tsx';

/** Checks the body the values make (not the raw values) against the mode's shape. */
export function recordResolver(decl: SectionDecl, mode: Mode, organization: string, row?: Row): Resolver<FormValues> {
  const check = shapeResolver<FormValues>(mode === 'create' ? decl.create : decl.update);
  return (values, context, options) => check(bodyOf(decl, mode, values, organization, row), context, options);
}

/** A field's error in words: the first message at or under its name. */
export function errorOf(errors: FieldErrors<FormValues>, name: string): string | undefined {
  const error = errors[name] as { message?: string; type?: string } | Record<string, { message?: string }> | undefined;
  if (!error) return undefined;
  if ('type' in error && error.type === 'required') return 'Required';
  if (typeof error.message === 'string') return error.message;
  const nested = Object.values(error).find((e) => e && typeof e === 'object' && 'message' in e) as { message?: string } | undefined;
  return nested?.message ?? 'Not valid';
}

export interface RecordFormProps {
  decl: SectionDecl;
  mode: Mode;
  row?: Row;
  /** The project a new record starts in (the table's, else the default one). */
  project?: number | null;
  onDone: (saved: Row) => void;
  onCancel: () => void;
}

export function RecordForm({ decl, mode, row, project, onDone, onCancel }: RecordFormProps) {
  const organization = useOrganization();
  const resolver = useMemo(() => recordResolver(decl, mode, organization, row), [decl, mode, organization, row]);
  const form = useForm<FormValues>({ resolver, defaultValues: initialValues(decl, mode, row, project) });
  const save = useMutation({
    mutationFn: (body: FormValues) =>
      api<Row>(orgPath(organization, mode === 'create' ? decl.path : `${decl.path}/${row?.id}`), { method: mode === 'create' ? 'POST' : 'PUT', body }),
    onSuccess: onDone,
  });
  const errors = form.formState.errors;
  const shape = mode === 'create' ? decl.create : decl.update;
  const chosen = form.watch('project');
  const recordProject = mode === 'create' ? Number(pickedId(chosen)) || null : ((row?.project as Row | undefined)?.id ?? null);

  const input = (field: FieldDecl) => (
    <Controller
      key={field.name}
      control={form.control}
      name={field.name}
      render={({ field: f }) => {
        const common = { label: field.label, description: field.description, error: errorOf(errors, field.name), required: requiredIn(shape, field.name) };
        switch (field.kind) {
          case 'bool':
            return (
              <Switch
                {...common}
                required={false}
                checked={Boolean(f.value)}
                onChange={(e) => f.onChange(e.currentTarget.checked)}
                onBlur={f.onBlur}
                ref={f.ref}
              />
            );
          case 'number':
            return <NumberInput {...common} value={f.value as number | string} onChange={f.onChange} onBlur={f.onBlur} allowDecimal={false} ref={f.ref} />;
          case 'color':
            return <ColorInput {...common} value={String(f.value ?? '')} onChange={f.onChange} onBlur={f.onBlur} format="hex" ref={f.ref} />;
          case 'textarea':
            return <Textarea {...common} value={String(f.value ?? '')} onChange={f.onChange} onBlur={f.onBlur} autosize minRows={2} ref={f.ref} />;
          case 'select':
            return (
              <Select
                {...common}
                data={field.options ?? []}
                value={(f.value as string) || null}
                onChange={(v) => f.onChange(v ?? '')}
                onBlur={f.onBlur}
                clearable
                ref={f.ref}
              />
            );
          case 'picker':
            return <RecordPicker {...common} picker={field.picker!} project={recordProject} value={f.value} onChange={f.onChange} />;
          default:
            return (
              <TextInput
                {...common}
                type={field.kind === 'email' ? 'email' : 'text'}
                value={String(f.value ?? '')}
                onChange={f.onChange}
                onBlur={f.onBlur}
                ref={f.ref}
              />
            );
        }
      }}
    />
  );

  return (
    <form onSubmit={form.handleSubmit((body) => save.mutate(body))} noValidate>
      <Stack>
        <ErrorAlert error={save.error} title={`Could not save the ${decl.thing}`} />
        {mode === 'create' && decl.projectScoped ? (
          <Controller
            control={form.control}
            name="project"
            render={({ field: f }) => (
              <ProjectPicker label="Project" value={f.value} onChange={f.onChange} error={errorOf(errors, 'project')} required={requiredIn(shape, 'project')} />
            )}
          />
        ) : null}
        {fieldsFor(decl, mode).map(input)}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {mode === 'create' ? `Create ${decl.thing}` : 'Save changes'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
