import { FileText, Image as ImageIcon, X } from 'lucide-react';
import type { ChatFile } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { IconButton } from './IconButton';

/** Only a data: URL of a raster image the page made itself is shown (never a URL that would load something). */
const THUMBNAIL = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

export function fileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

interface Props {
  readonly files: readonly ChatFile[];
  readonly label: string;
  /** In the composer: each file can be taken off the message again. */
  readonly onRemove?: (index: number) => void;
}

/** Files of a message: images as small previews, text files by name and size. */
export function FileChips({ files, label, onRemove }: Props) {
  return (
    <ul className="file-chips" aria-label={label}>
      {files.map((file, index) => {
        const name = visibleText(file.name);
        const thumbnail = file.thumbnail && THUMBNAIL.test(file.thumbnail) ? file.thumbnail : undefined;
        return (
          <li key={`${index}:${file.name}`} className={`file-chip file-chip--${file.kind}`}>
            {thumbnail ? (
              <img className="file-chip__thumb" src={thumbnail} alt={`Image ${name}`} />
            ) : file.kind === 'image' ? (
              <ImageIcon className="file-chip__icon" aria-hidden="true" size={18} />
            ) : (
              <FileText className="file-chip__icon" aria-hidden="true" size={18} />
            )}
            <span className="file-chip__text">
              <span className="file-chip__name">{name}</span>
              <span className="file-chip__size">{fileSize(file.bytes)}</span>
            </span>
            {onRemove ? <IconButton icon={X} label={`Remove ${name}`} className="file-chip__remove" onClick={() => onRemove(index)} /> : null}
          </li>
        );
      })}
    </ul>
  );
}
