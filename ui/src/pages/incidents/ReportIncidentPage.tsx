import { EmptyState } from '../../components/Feedback.tsx';

export default function ReportIncidentPage() {
  return <EmptyState title="ReportIncidentPage">Not built yet.</EmptyState>;
}
