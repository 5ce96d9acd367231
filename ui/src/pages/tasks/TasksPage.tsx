import { EmptyState } from '../../components/Feedback.tsx';

export default function TasksPage() {
  return <EmptyState title="TasksPage">Not built yet.</EmptyState>;
}
