import { useEffect, useState } from 'react';
import type { RegistryProblem } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';

/**
 * Across the top of every page while harbor.json, edited by hand, cannot be used: what is wrong and
 * where (line, column), and that the servers keep running as they were. Gone once the file is
 * fixed (the Host reads it again on every change: main/host/services/registry-watch.ts).
 */
export function RegistryBanner() {
  const api = useHarbor();
  const [problems, setProblems] = useState<readonly RegistryProblem[]>([]);
  useEffect(() => api.on.registry.changed((event) => setProblems(event.ok ? [] : event.problems)), [api]);
  if (problems.length === 0) return null;
  return (
    <div className="banner banner--error" role="alert" data-testid="registry-banner">
      <strong>harbor.json has {problems.length === 1 ? 'a problem' : `${problems.length} problems`}; the servers keep running as they were until it is fixed.</strong>
      <ul className="banner__list">
        {problems.map((problem, index) => (
          <li key={index}>
            {problem.line && !problem.message.includes(`line ${problem.line},`) ? `Line ${problem.line}${problem.column ? `, column ${problem.column}` : ''}: ` : ''}
            {problem.path === '(file)' ? '' : `${problem.path}: `}
            {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
