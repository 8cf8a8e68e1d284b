import { acceptedLanguages, bestFit } from '../contract/languages.ts';
import { invalidRequest } from '../http/errors.ts';

/**
 * The words of the worker's own pages (the embed pages and their refusals), in the languages the elements speak
 * (components/shared/i18n/packs/). An embed page is in the language its URL names (`?lang=de`), else the best fit of
 * the visitor's `Accept-Language`; its `<html lang>` says it, so the elements inside speak it too.
 */
export interface EmbedWords {
  /** In an embed page, under the elements, for a visitor whose browser runs no scripts. */
  needsScript: string;
  /** The title of a refused embed page: refused for the visitor's location (451). */
  titleNotAvailable: string;
  /** The title of any other refused embed page. */
  titleUnavailable: string;
  /** A refused embed page's message, by status. */
  refusal400: string;
  refusal403: string;
  refusal404: string;
  refusal429: string;
  refusal451: string;
  /** Any other status (a 5xx). */
  refusalOther: string;
}

/** Every language's words; `{title}` is the content's title. */
export const EMBED_WORDS: Record<string, EmbedWords> = {
  en: {
    needsScript: '{title}: this video needs JavaScript.',
    titleNotAvailable: 'Not available',
    titleUnavailable: 'Unavailable',
    refusal400: 'This embed address is not valid.',
    refusal403: 'This page is made to be shown in an iframe.',
    refusal404: 'This video or playlist does not exist, or is not published.',
    refusal429: 'Too many requests right now. Please try again in a minute.',
    refusal451: 'This content is not available in your region.',
    refusalOther: 'This video cannot be shown right now. Please try again later.',
  },
  ar: {
    needsScript: '{title}: يتطلب هذا الفيديو JavaScript.',
    titleNotAvailable: 'غير متاح',
    titleUnavailable: 'غير متوفر',
    refusal400: 'عنوان التضمين هذا غير صالح.',
    refusal403: 'هذه الصفحة مُعدّة للعرض داخل iframe.',
    refusal404: 'هذا الفيديو أو قائمة التشغيل غير موجود أو غير منشور.',
    refusal429: 'عدد الطلبات كبير جدًا حاليًا. يُرجى المحاولة مرة أخرى بعد دقيقة.',
    refusal451: 'هذا المحتوى غير متاح في منطقتك.',
    refusalOther: 'يتعذّر عرض هذا الفيديو حاليًا. يُرجى المحاولة مرة أخرى لاحقًا.',
  },
  de: {
    needsScript: '{title}: Für dieses Video wird JavaScript benötigt.',
    titleNotAvailable: 'Nicht verfügbar',
    titleUnavailable: 'Nicht abrufbar',
    refusal400: 'Diese Einbettungsadresse ist ungültig.',
    refusal403: 'Diese Seite ist für die Anzeige in einem iframe vorgesehen.',
    refusal404: 'Dieses Video oder diese Playlist existiert nicht oder ist nicht veröffentlicht.',
    refusal429: 'Zu viele Anfragen. Bitte versuchen Sie es in einer Minute noch einmal.',
    refusal451: 'Dieser Inhalt ist in Ihrer Region nicht verfügbar.',
    refusalOther: 'Dieses Video kann gerade nicht angezeigt werden. Bitte versuchen Sie es später erneut.',
  },
  es: {
    needsScript: '{title}: este video necesita JavaScript.',
    titleNotAvailable: 'No disponible',
    titleUnavailable: 'No accesible',
    refusal400: 'Esta dirección de inserción no es válida.',
    refusal403: 'Esta página está pensada para mostrarse en un iframe.',
    refusal404: 'Este video o lista de reproducción no existe o no está publicado.',
    refusal429: 'Demasiadas solicitudes en este momento. Inténtelo de nuevo en un minuto.',
    refusal451: 'Este contenido no está disponible en su región.',
    refusalOther: 'Este video no se puede mostrar en este momento. Inténtelo de nuevo más tarde.',
  },
  fr: {
    needsScript: '{title} : cette vidéo nécessite JavaScript.',
    titleNotAvailable: 'Non disponible',
    titleUnavailable: 'Indisponible',
    refusal400: 'Cette adresse d’intégration n’est pas valide.',
    refusal403: 'Cette page est conçue pour être affichée dans un iframe.',
    refusal404: 'Cette vidéo ou playlist n’existe pas ou n’est pas publiée.',
    refusal429: 'Trop de requêtes pour le moment. Veuillez réessayer dans une minute.',
    refusal451: 'Ce contenu n’est pas disponible dans votre région.',
    refusalOther: 'Cette vidéo ne peut pas être affichée pour le moment. Veuillez réessayer plus tard.',
  },
  it: {
    needsScript: '{title}: questo video richiede JavaScript.',
    titleNotAvailable: 'Non disponibile',
    titleUnavailable: 'Non accessibile',
    refusal400: 'Questo indirizzo di incorporamento non è valido.',
    refusal403: 'Questa pagina è pensata per essere mostrata in un iframe.',
    refusal404: 'Questo video o playlist non esiste o non è pubblicato.',
    refusal429: 'Troppe richieste in questo momento. Riprovare tra un minuto.',
    refusal451: 'Questo contenuto non è disponibile in quest’area geografica.',
    refusalOther: 'Impossibile mostrare questo video in questo momento. Riprovare più tardi.',
  },
  ja: {
    needsScript: '{title}：この動画を再生するには JavaScript が必要です。',
    titleNotAvailable: 'ご利用いただけません',
    titleUnavailable: '利用できません',
    refusal400: 'この埋め込みアドレスは無効です。',
    refusal403: 'このページは iframe 内で表示するためのものです。',
    refusal404: 'この動画または再生リストは存在しないか、公開されていません。',
    refusal429: 'ただいまリクエストが集中しています。1 分ほど待ってからもう一度お試しください。',
    refusal451: 'このコンテンツはお住まいの地域ではご覧いただけません。',
    refusalOther: '現在この動画を表示できません。しばらくしてからもう一度お試しください。',
  },
  ko: {
    needsScript: '{title}: 이 동영상을 보려면 JavaScript가 필요합니다.',
    titleNotAvailable: '이용할 수 없음',
    titleUnavailable: '사용할 수 없음',
    refusal400: '이 퍼가기 주소가 올바르지 않습니다.',
    refusal403: '이 페이지는 iframe 안에 표시되도록 만들어졌습니다.',
    refusal404: '이 동영상 또는 재생목록이 존재하지 않거나 게시되지 않았습니다.',
    refusal429: '지금은 요청이 너무 많습니다. 1분 후에 다시 시도해 주세요.',
    refusal451: '현재 지역에서는 이 콘텐츠를 이용할 수 없습니다.',
    refusalOther: '지금은 이 동영상을 표시할 수 없습니다. 나중에 다시 시도해 주세요.',
  },
  nl: {
    needsScript: '{title}: voor deze video is JavaScript nodig.',
    titleNotAvailable: 'Niet beschikbaar',
    titleUnavailable: 'Onbeschikbaar',
    refusal400: 'Dit insluitadres is ongeldig.',
    refusal403: 'Deze pagina is bedoeld om in een iframe te worden weergegeven.',
    refusal404: 'Deze video of afspeellijst bestaat niet of is niet gepubliceerd.',
    refusal429: 'Er zijn op dit moment te veel verzoeken. Probeer het over een minuut opnieuw.',
    refusal451: 'Deze content is niet beschikbaar in uw regio.',
    refusalOther: 'Deze video kan nu niet worden weergegeven. Probeer het later opnieuw.',
  },
  pl: {
    needsScript: '{title}: ten film wymaga JavaScriptu.',
    titleNotAvailable: 'Niedostępne',
    titleUnavailable: 'Brak dostępu',
    refusal400: 'Ten adres osadzenia jest nieprawidłowy.',
    refusal403: 'Ta strona jest przeznaczona do wyświetlania w elemencie iframe.',
    refusal404: 'Ten film lub ta playlista nie istnieje albo nie została opublikowana.',
    refusal429: 'Zbyt wiele żądań. Spróbuj ponownie za minutę.',
    refusal451: 'Ta treść jest niedostępna w Twoim regionie.',
    refusalOther: 'Nie można teraz wyświetlić tego filmu. Spróbuj ponownie później.',
  },
  'pt-BR': {
    needsScript: '{title}: este vídeo precisa de JavaScript.',
    titleNotAvailable: 'Não disponível',
    titleUnavailable: 'Indisponível',
    refusal400: 'Este endereço de incorporação não é válido.',
    refusal403: 'Esta página foi feita para ser exibida em um iframe.',
    refusal404: 'Este vídeo ou playlist não existe ou não foi publicado.',
    refusal429: 'Muitas solicitações no momento. Tente novamente em um minuto.',
    refusal451: 'Este conteúdo não está disponível na sua região.',
    refusalOther: 'Não é possível exibir este vídeo agora. Tente novamente mais tarde.',
  },
  sv: {
    needsScript: '{title}: den här videon kräver JavaScript.',
    titleNotAvailable: 'Inte tillgängligt',
    titleUnavailable: 'Otillgängligt',
    refusal400: 'Den här inbäddningsadressen är ogiltig.',
    refusal403: 'Den här sidan är gjord för att visas i en iframe.',
    refusal404: 'Den här videon eller spellistan finns inte eller är inte publicerad.',
    refusal429: 'För många förfrågningar just nu. Försök igen om en minut.',
    refusal451: 'Det här innehållet är inte tillgängligt i din region.',
    refusalOther: 'Den här videon kan inte visas just nu. Försök igen senare.',
  },
  tr: {
    needsScript: '{title}: Bu video için JavaScript gerekiyor.',
    titleNotAvailable: 'Kullanılamıyor',
    titleUnavailable: 'Erişilemiyor',
    refusal400: 'Bu yerleştirme adresi geçerli değil.',
    refusal403: 'Bu sayfa bir iframe içinde gösterilmek üzere hazırlanmıştır.',
    refusal404: 'Bu video veya oynatma listesi mevcut değil ya da yayımlanmamış.',
    refusal429: 'Şu anda çok fazla istek var. Lütfen bir dakika sonra tekrar deneyin.',
    refusal451: 'Bu içerik bölgenizde kullanılamıyor.',
    refusalOther: 'Bu video şu anda gösterilemiyor. Lütfen daha sonra tekrar deneyin.',
  },
  'zh-CN': {
    needsScript: '{title}：此视频需要 JavaScript。',
    titleNotAvailable: '无法观看',
    titleUnavailable: '不可用',
    refusal400: '此嵌入地址无效。',
    refusal403: '此页面需在 iframe 中显示。',
    refusal404: '此视频或播放列表不存在或未发布。',
    refusal429: '当前请求过多，请一分钟后再试。',
    refusal451: '此内容在您所在的地区无法观看。',
    refusalOther: '此视频暂时无法显示，请稍后再试。',
  },
};

/** What an embed page says, and in which language (`lang`, for its `<html lang>`). */
export interface EmbedLanguage {
  lang: string;
  words: EmbedWords;
  /** Whether `Accept-Language` chose it (the answer then varies with that header). */
  negotiated: boolean;
}

const RIGHT_TO_LEFT = new Set(['ar', 'fa', 'he', 'ur']);
export const isRightToLeft = (lang: string): boolean => RIGHT_TO_LEFT.has(lang.split('-')[0]!);

/**
 * The embed page's language: the one `?lang=` names when it is given (English when no pack fits it, as the elements
 * do; refused when it is no language tag), else the best fit of the visitor's `Accept-Language`, else English.
 */
export function embedLanguage(asked: string | undefined, acceptLanguage: string | null): EmbedLanguage {
  const available = Object.keys(EMBED_WORDS);
  const pick = (lang: string, negotiated: boolean): EmbedLanguage => ({ lang, words: EMBED_WORDS[lang]!, negotiated });
  if (asked !== undefined) {
    if (asked.length > 35 || !isLanguageTag(asked)) throw invalidRequest('"lang" is not a language tag, e.g. "de" or "pt-BR".');
    return pick(bestFit(asked, available)?.[0] ?? 'en', false);
  }
  for (const wanted of acceptedLanguages(acceptLanguage)) {
    const fit = bestFit(wanted, available);
    if (fit) return pick(fit[0], true);
  }
  return pick('en', acceptLanguage !== null);
}

/** Whether `tag` is a well-formed language tag (whatever the packs). */
function isLanguageTag(tag: string): boolean {
  try {
    return !!new Intl.Locale(tag).language;
  } catch {
    return false;
  }
}
