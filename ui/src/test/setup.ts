// Set up before every component test: `findBy…` and `waitFor` wait up to 5 s for what a page shows
// next. Testing Library's own limit, 1 s, is shorter than a render takes on a busy CI machine,
// where a role query over a whole page can itself take hundreds of milliseconds.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
