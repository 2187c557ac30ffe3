import { useId } from 'react';
import type { ConsentChoice, ConsentRequest } from '../../../../preload/contract';
import { ConsentDetails } from './ConsentDetails';
import { consentWords } from './consent-words';
import { Countdown } from './Countdown';
import './consent.css';

interface Props {
  readonly request: ConsentRequest;
  readonly onDecide: (decision: ConsentChoice) => void;
}

/**
 * A chat's question as part of its transcript, with the call it is about: the same details as the
 * dialog (who asks, the tool, its description and risk, the exact arguments, what changed) and the
 * same choices. It takes no focus (the person may be typing) and nothing else on the page waits
 * for it; the deadline still denies.
 */
export function ConsentCard({ request, onDecide }: Props) {
  const titleId = useId();
  const leadId = useId();
  const { title, labels, options } = consentWords(request);
  return (
    <section className="consent consent-card" role="group" aria-labelledby={titleId} aria-describedby={leadId}>
      <h3 id={titleId} className="consent-card__title" data-consent-id={request.id}>
        {title}
      </h3>
      <div className="consent-card__body">
        <ConsentDetails request={request} leadId={leadId} />
        <Countdown deadline={request.deadline} outcome="Denied" onExpire={() => onDecide('deny')} />
      </div>
      <div className="consent-card__actions">
        {options.map((option) => (
          <button key={option} type="button" className={`button button--small${option === 'once' ? ' button--primary' : ''}`} onClick={() => onDecide(option)}>
            {labels[option]}
          </button>
        ))}
      </div>
    </section>
  );
}
