import { EmptyState } from '../../components/Feedback.tsx';

export default function DashboardsPage() {
  return <EmptyState title="DashboardsPage">Not built yet.</EmptyState>;
}
