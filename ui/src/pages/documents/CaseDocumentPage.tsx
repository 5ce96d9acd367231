import DocumentPage from './DocumentPage.tsx';

export default function CaseDocumentPage() {
  return <DocumentPage kind="case" />;
}
