import type { LucideIcon } from 'lucide-react';
import { forwardRef, type ButtonHTMLAttributes } from 'react';
import '../../ui/controls.css';

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'aria-label' | 'title'> {
  readonly icon: LucideIcon;
  /** The button's name, read by screen readers and shown as its tooltip. */
  readonly label: string;
  /** A tooltip other than the name (e.g. "Copied" for a moment). */
  readonly tooltip?: string;
}

/** A button that shows only an icon: named for assistive technology, with the name as a tooltip. */
export const IconButton = forwardRef<HTMLButtonElement, Props>(function IconButton({ icon: Icon, label, tooltip, className, type = 'button', ...rest }, ref) {
  return (
    <button ref={ref} type={type} className={`icon-button${className ? ` ${className}` : ''}`} aria-label={label} title={tooltip ?? label} {...rest}>
      <Icon aria-hidden="true" size={16} strokeWidth={2} />
    </button>
  );
});
