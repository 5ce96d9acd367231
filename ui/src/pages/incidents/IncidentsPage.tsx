import { EmptyState } from '../../components/Feedback.tsx';

export default function IncidentsPage() {
  return <EmptyState title="IncidentsPage">Not built yet.</EmptyState>;
}
