import DocumentPage from './DocumentPage.tsx';

export default function IncidentDocumentPage() {
  return <DocumentPage kind="incident" />;
}
