// Every page and its path. Pages load on first visit (one chunk each), so the first page a person
// opens carries only the frame, the sign-in and what that page needs; charts come with dashboards.
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, useRouteError } from 'react-router';
import { ErrorAlert, Loading } from '../components/Feedback.tsx';
import { readToken } from '../api/token.ts';

// The frame (navigation, menus, search) loads with the first signed-in page, not with sign-in.
const Layout = lazy(() => import('./Layout.tsx'));

const page = (load: () => Promise<{ default: React.ComponentType }>) => {
  const Page = lazy(load);
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
};

function RouteError() {
  return <ErrorAlert error={useRouteError()} title="This page could not be shown" />;
}

/** `/` goes to the organization of the last sign-in, else `default`. */
function Home() {
  const organization = localStorage.getItem('muster.organization') ?? 'default';
  return <Navigate to={readToken() ? `/${organization}/incidents` : `/${organization}/auth/login`} replace />;
}

export const router = createBrowserRouter([
  { path: '/', element: <Home /> },
  { path: '/:organization/auth/login', element: page(() => import('../pages/auth/LoginPage.tsx')), errorElement: <RouteError /> },
  { path: '/:organization/auth/sso', element: page(() => import('../pages/auth/SsoLandingPage.tsx')), errorElement: <RouteError /> },
  { path: '/:organization/auth/register', element: page(() => import('../pages/auth/RegisterPage.tsx')), errorElement: <RouteError /> },
  { path: '/:organization/auth/reset', element: page(() => import('../pages/auth/ResetPage.tsx')), errorElement: <RouteError /> },
  { path: '/:organization/auth/confirm', element: page(() => import('../pages/auth/ConfirmPage.tsx')), errorElement: <RouteError /> },
  {
    path: '/:organization',
    element: (
      <Suspense fallback={<Loading />}>
        <Layout />
      </Suspense>
    ),
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="incidents" replace /> },
      { path: 'incidents', element: page(() => import('../pages/incidents/IncidentsPage.tsx')) },
      { path: 'incidents/report', element: page(() => import('../pages/incidents/ReportIncidentPage.tsx')) },
      { path: 'incidents/:name', element: page(() => import('../pages/incident/IncidentPage.tsx')) },
      { path: 'incidents/:name/documents/:doc', element: page(() => import('../pages/documents/IncidentDocumentPage.tsx')) },
      { path: 'cases/:name/documents/:doc', element: page(() => import('../pages/documents/CaseDocumentPage.tsx')) },
      { path: 'cases', element: page(() => import('../pages/cases/CasesPage.tsx')) },
      { path: 'cases/:name', element: page(() => import('../pages/cases/CasePage.tsx')) },
      { path: 'signals/*', element: page(() => import('../pages/signals/SignalsPage.tsx')) },
      { path: 'tasks', element: page(() => import('../pages/tasks/TasksPage.tsx')) },
      { path: 'dashboards/*', element: page(() => import('../pages/dashboards/DashboardsPage.tsx')) },
      { path: 'search', element: page(() => import('../pages/search/SearchPage.tsx')) },
      { path: 'settings/*', element: page(() => import('../pages/settings/SettingsPage.tsx')) },
      { path: '*', element: <ErrorAlert error={new Error('There is no such page.')} title="Not found" /> },
    ],
  },
]);
