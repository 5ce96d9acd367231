import '@mantine/core/styles.css';
import { Anchor, type CSSVariablesResolver, createTheme, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError, setUnauthorizedHandler } from './api/client.ts';
import { router } from './app/routes.tsx';

const queryClient: QueryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused request (4xx) is not retried: the answer will not change.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: true,
    },
  },
  // After any change, what is on screen is read again.
  mutationCache: new MutationCache({ onSuccess: () => void queryClient.invalidateQueries() }),
});

setUnauthorizedHandler(() => {
  const organization = location.pathname.split('/')[1] || 'default';
  if (!location.pathname.includes('/auth/')) router.navigate(`/${organization}/auth/login?next=${encodeURIComponent(location.pathname + location.search)}`);
});

// Shades picked for contrast (WCAG AA, 4.5:1): white on the filled colours, and a dimmed text and a
// field's error text darker (lighter in dark mode) than Mantine's defaults, which are below 4.5:1 on
// the page background.
// People who ask their system for less motion get no transitions.
// Links are underlined: inside a sentence colour alone does not tell them apart (WCAG 1.4.1).
const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  primaryShade: { light: 8, dark: 8 },
  respectReducedMotion: true,
  components: { Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }) },
});
const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636a', '--mantine-color-error': '#c92a2a' },
  dark: { '--mantine-color-dimmed': '#a6a7ab', '--mantine-color-error': '#ff8787' },
});
const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariables}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
