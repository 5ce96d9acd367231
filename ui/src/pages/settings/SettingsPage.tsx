import { EmptyState } from '../../components/Feedback.tsx';

export default function SettingsPage() {
  return <EmptyState title="SettingsPage">Not built yet.</EmptyState>;
}
