import { EmptyState } from '../../components/Feedback.tsx';

export default function CasesPage() {
  return <EmptyState title="CasesPage">Not built yet.</EmptyState>;
}
