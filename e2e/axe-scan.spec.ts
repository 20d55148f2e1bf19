import { axeScan } from './support/axe';
import { expect, test } from './support/fixtures';

// The scanner every axe test relies on: it must find what it is meant to find, only where it is told to look.
test('axeScan reports a planted violation, honours include and exclude, and refuses an unexcluded frame', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  expect((await axeScan(page)).violations).toEqual([]);

  // An image without a text alternative inside main, and a button without a name in a box of its own.
  await page.evaluate(() => {
    const img = document.createElement('img');
    img.src = '/favicon.ico';
    img.id = 'planted-img';
    document.querySelector('main')?.append(img);
    const box = document.createElement('div');
    box.id = 'planted-box';
    box.innerHTML = '<button type="button"></button>';
    document.querySelector('main')?.append(box);
  });
  const all = await axeScan(page);
  expect(all.violations.map((v) => v.id).sort()).toEqual(['button-name', 'image-alt']);
  expect((await axeScan(page, { include: '#planted-box' })).violations.map((v) => v.id)).toEqual([
    'button-name',
  ]);
  expect(
    (await axeScan(page, { exclude: ['#planted-img'], disableRules: ['button-name'] })).violations,
  ).toEqual([]);

  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.title = 'planted frame';
    document.querySelector('main')?.append(frame);
  });
  await expect(axeScan(page)).rejects.toThrow(/1 frame\(s\) would go unscanned/);
  await expect(
    axeScan(page, { exclude: ['iframe[title="planted frame"]', '#planted-img', '#planted-box'] }),
  ).resolves.toMatchObject({ violations: [] });
});
