import { EmptyState } from '../../components/Feedback.tsx';

export default function SignalsPage() {
  return <EmptyState title="SignalsPage">Not built yet.</EmptyState>;
}
