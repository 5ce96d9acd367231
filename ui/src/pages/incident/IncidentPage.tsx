import { EmptyState } from '../../components/Feedback.tsx';

export default function IncidentPage() {
  return <EmptyState title="IncidentPage">Not built yet.</EmptyState>;
}
