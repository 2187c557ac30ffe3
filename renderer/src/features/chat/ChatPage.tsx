import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';

export function ChatPage() {
  return (
    <>
      <PageHeader title="Chat">Talk with a model that can use your servers' tools — with you approving each action.</PageHeader>
      <EmptyState title="Chat is not available yet">
        <p>Model providers and conversations arrive in a later version. Meanwhile, the Servers page shows what is connected.</p>
      </EmptyState>
    </>
  );
}
