/// Titles of Pushbutton's built-in buttons in English, French, German, Spanish, Japanese and
/// Simplified Chinese, keyed by the button's short name.
enum BuiltinTranslations {
    /// The locales every built-in title is translated into.
    static let locales = ["en", "fr", "de", "es", "ja", "zh-Hans"]

    static let send = table("Send", "Envoyer", "Senden", "Enviar", "送信", "发送")
    static let messagePlaceholder = table("Message", "Message", "Nachricht", "Mensaje", "メッセージ", "消息")

    /// Button short name → translations, in the order of ``locales``.
    static let buttons: [String: [String: String]] = [
        "yes": table("Yes", "Oui", "Ja", "Sí", "はい", "是"),
        "no": table("No", "Non", "Nein", "No", "いいえ", "否"),
        "accept": table("Accept", "Accepter", "Annehmen", "Aceptar", "承諾", "接受"),
        "decline": table("Decline", "Refuser", "Ablehnen", "Rechazar", "辞退", "拒绝"),
        "shop_now": table("Shop Now", "Voir la boutique", "Jetzt shoppen", "Comprar ahora", "今すぐショッピング", "立即选购"),
        "buy_now": table("Buy Now", "Acheter", "Jetzt kaufen", "Comprar ya", "今すぐ購入", "立即购买"),
        "share": table("Share", "Partager", "Teilen", "Compartir", "共有", "分享"),
        "download": table("Download", "Télécharger", "Herunterladen", "Descargar", "ダウンロード", "下载"),
        "follow": table("Follow", "Suivre", "Folgen", "Seguir", "フォロー", "关注"),
        "unfollow": table("Unfollow", "Ne plus suivre", "Nicht mehr folgen", "Dejar de seguir", "フォロー解除", "取消关注"),
        "save": table("Save", "Enregistrer", "Speichern", "Guardar", "保存", "保存"),
        "opt_in": table("Opt In", "S’inscrire", "Anmelden", "Suscribirse", "登録する", "订阅"),
        "opt_out": table("Opt Out", "Se désinscrire", "Abmelden", "Darse de baja", "登録解除", "退订"),
        "remind": table("Remind Me Later", "Me le rappeler", "Später erinnern", "Recordármelo", "後で通知", "稍后提醒"),
        "like": table("Like", "J’aime", "Gefällt mir", "Me gusta", "いいね", "赞"),
        "dislike": table("Dislike", "Je n’aime pas", "Gefällt mir nicht", "No me gusta", "よくないね", "踩"),
        "more_like": table("More Like This", "Plus de ce genre", "Mehr davon", "Más como esto", "もっと見る", "更多类似内容"),
        "less_like": table("Less Like This", "Moins de ce genre", "Weniger davon", "Menos como esto", "減らす", "减少类似内容"),
        "happy": table("Happy", "Content", "Glücklich", "Contento", "うれしい", "开心"),
        "sad": table("Sad", "Triste", "Traurig", "Triste", "悲しい", "难过"),
        "thumbs_up": table("Thumbs Up", "Pouce levé", "Daumen hoch", "Pulgar arriba", "高評価", "点赞"),
        "thumbs_down": table("Thumbs Down", "Pouce baissé", "Daumen runter", "Pulgar abajo", "低評価", "点踩"),
        "add": table("Add", "Ajouter", "Hinzufügen", "Añadir", "追加", "添加"),
        "add_calendar": table(
            "Add to Calendar", "Ajouter au calendrier", "Zum Kalender", "Añadir al calendario", "カレンダーに追加", "添加到日历"),
        "book_now": table("Book Now", "Réserver", "Jetzt buchen", "Reservar ahora", "今すぐ予約", "立即预订"),
        "tell_me_more": table("Tell Me More", "En savoir plus", "Mehr erfahren", "Más información", "詳しく見る", "了解更多"),
        "rate_now": table("Rate Now", "Noter", "Jetzt bewerten", "Valorar ahora", "今すぐ評価", "立即评分"),
        "search": table("Search", "Rechercher", "Suchen", "Buscar", "検索", "搜索"),
        "archive": table("Archive", "Archiver", "Archivieren", "Archivar", "アーカイブ", "归档"),
        "delete": table("Delete", "Supprimer", "Löschen", "Eliminar", "削除", "删除"),
        "reply": table("Reply", "Répondre", "Antworten", "Responder", "返信", "回复"),
    ]

    private static func table(
        _ en: String, _ fr: String, _ de: String, _ es: String, _ ja: String, _ zhHans: String
    ) -> [String: String] {
        ["en": en, "fr": fr, "de": de, "es": es, "ja": ja, "zh-Hans": zhHans]
    }
}
