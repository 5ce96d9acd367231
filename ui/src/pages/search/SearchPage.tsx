import { EmptyState } from '../../components/Feedback.tsx';

export default function SearchPage() {
  return <EmptyState title="SearchPage">Not built yet.</EmptyState>;
}
