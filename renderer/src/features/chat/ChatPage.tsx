import { hrefFor } from '../../app/routes';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';

export function ChatPage() {
  return (
    <>
      <PageHeader title="Chat">Talk with a model that can use your servers' tools — with you approving each action.</PageHeader>
      <EmptyState title="Chat is not available yet">
        <p>
          Model providers and conversations arrive in a later version. Meanwhile, check your{' '}
          <a href={hrefFor('servers')}>servers</a> and their tools.
        </p>
      </EmptyState>
    </>
  );
}
