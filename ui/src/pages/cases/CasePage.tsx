import { EmptyState } from '../../components/Feedback.tsx';

export default function CasePage() {
  return <EmptyState title="CasePage">Not built yet.</EmptyState>;
}
