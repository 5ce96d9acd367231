#!/usr/bin/env node
// Muster ships its TypeScript sources; tsx compiles them on load so a fresh clone runs without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
