// @vitest-environment jsdom
/**
 * The guide for platform staff: groups and the chosen group's articles, hidden ones too; an
 * article added with its texts in both languages goes as one body to guide/add; a group with
 * articles cannot be deleted; showing or hiding an article is one click.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { guideApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { dialog, fill } from '../../ui/testing/dialog';
import { GuideAdmin } from './GuideAdmin';

const group = (id: number, code: string, nameEn: string, items: number) => ({ id, code, nameZh: '', nameEn, sort: id, status: 1, builtin: true, items, updatedAt: 0 });
const item = { id: 7, groupId: 1, code: 'exceptions.handle', nameZh: '处理异常', nameEn: 'Handling an exception', contentZh: '', contentEn: 'Text', path: '/abnormal/dataex', sort: 1, status: 0, builtin: true, updatedAt: 0 };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('GuideAdmin', () => {
  it('lists groups and the first group\'s articles; adds an article; shows a hidden one', async () => {
    const calls = serverAnswers({
      [guideApi.groups.path]: [group(1, 'exceptions', 'Exceptions', 1), group(2, 'empty', 'Empty group', 0)],
      '/service/guide/list/1': [item],
      [guideApi.add.path]: { id: 8 },
      [guideApi.status.path]: { updated: 1 },
    });
    renderSignedIn(<GuideAdmin />, { funcs: ['viewParam', 'editParam'], userType: 3 });
    expect(await screen.findByText('Handling an exception')).toBeTruthy();
    expect(screen.getByText('Articles of Exceptions')).toBeTruthy();
    // Shown or hidden: the article is hidden; one click shows it.
    fireEvent.click(within(screen.getByText('Handling an exception').closest('tr')!).getByRole('switch'));
    await waitFor(() => expect(calls.find((c) => c.path === guideApi.status.path)).toMatchObject({ method: 'POST', query: { ids: '7', status: '1' } }));

    fireEvent.click(screen.getByRole('button', { name: /Add article/ }));
    await screen.findByText('Add article', { selector: '.ant-modal-title' });
    fill('Code', 'exceptions.close');
    fill('Name (English)', 'Closing an exception');
    fill('Page', '/abnormal/dataex');
    fill('Text (English)', 'Select it and sign.');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === guideApi.add.path)).toMatchObject({
        method: 'POST',
        body: { groupId: 1, code: 'exceptions.close', nameEn: 'Closing an exception', nameZh: '', path: '/abnormal/dataex', contentEn: 'Select it and sign.', contentZh: '', status: 1, sort: 100 },
      }),
    );
  });
});
