import { BookState, type BookPushData } from './book-state.ts';
import type { SocketManager } from './socket-manager.ts';

/**
 * Keeps a book from a `books` stream: snapshot, then updates; on a sequence gap the manager is
 * asked to resync (unsubscribe and subscribe again, which brings a new snapshot).
 */
export function watchBook(manager: SocketManager, stream: string, onChange: (book: BookState) => void): () => void {
  const book = new BookState();
  return manager.subscribe(stream, (push) => {
    const action = push.action ?? 'update';
    const items = Array.isArray(push.data) ? (push.data as BookPushData[]) : [push.data as BookPushData];
    let isChanged = false;
    for (const data of items) {
      const result = book.apply(action, data);
      if (result === 'gap') {
        manager.resync(stream);
        return;
      }
      isChanged ||= result === 'applied';
    }
    if (isChanged) onChange(book);
  });
}
