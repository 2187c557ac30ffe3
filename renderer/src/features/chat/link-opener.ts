import { createContext } from 'react';

/** What a click on a link in rendered text does (the chat checks it with the person first). */
export const LinkOpenerContext = createContext<((href: string) => void) | null>(null);
