/**
 * The record page's only script (progressive enhancement: without it the timecodes open the video
 * file at that second, `#t=`): a click on a timecode of the transcript seeks the page's player
 * there and plays; while it plays, the passage being spoken is marked. Served as
 * `{BASE_PATH}/browse/player.js` under `script-src 'self'`.
 */
export const PLAYER_JS = `(() => {
  const player = document.querySelector('[data-player] video');
  if (!player) return;
  const codes = [...document.querySelectorAll('a.tc[data-seconds]')];
  for (const a of codes) {
    a.addEventListener('click', (event) => {
      event.preventDefault();
      player.currentTime = Number(a.dataset.seconds);
      player.play().catch(() => {});
      player.focus();
    });
  }
  let current;
  player.addEventListener('timeupdate', () => {
    let now;
    for (const a of codes) if (Number(a.dataset.seconds) <= player.currentTime) now = a;
    if (now === current) return;
    if (current) current.removeAttribute('aria-current');
    current = now;
    if (current) current.setAttribute('aria-current', 'time');
  });
})();
`;
