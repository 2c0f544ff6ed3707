/// One language of the generated corpus: real words (most frequent first), names, and how
/// sentences are put together.
final class CorpusLanguage: Sendable {
    let code: String
    /// Words are separated by spaces (false for Chinese, Japanese and Thai).
    let spaced: Bool
    /// The first ASCII letter of a sentence is upper-cased.
    let capitalizes: Bool
    let words: [[UInt8]]
    /// Unicode scalars per word, for message lengths.
    let units: [Int]
    /// Cumulative Zipf probabilities over `words`.
    let cumulative: [Double]
    let enders: [[UInt8]]
    let comma: [UInt8]
    /// UTC offsets in minutes the language's chats use.
    let offsets: [Int]
    let firstNames: [String]
    let lastNames: [String]
    /// Full names are written family name first, without a space (Chinese, Korean) or with one (Japanese).
    let familyFirst: Bool
    let familySeparator: String
    let groupNames: [String]
    let fileNames: [String]

    init(
        code: String, spaced: Bool = true, capitalizes: Bool = false, words: String, enders: [String],
        comma: String = ", ",
        offsets: [Int], firstNames: String, lastNames: String, familyFirst: Bool = false, familySeparator: String = "",
        groupNames: [String], fileNames: [String]
    ) {
        self.code = code
        self.spaced = spaced
        self.capitalizes = capitalizes
        let list = words.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        self.words = list.map { Array($0.utf8) }
        self.units = list.map { $0.unicodeScalars.count }
        var total = 0.0
        var cdf: [Double] = []
        cdf.reserveCapacity(list.count)
        for rank in 0..<list.count {
            total += 1.0 / Double(rank + 2)
            cdf.append(total)
        }
        self.cumulative = cdf.map { $0 / total }
        self.enders = enders.map { Array($0.utf8) }
        self.comma = Array(comma.utf8)
        self.offsets = offsets
        self.firstNames = firstNames.split(separator: " ").map(String.init)
        self.lastNames = lastNames.split(separator: " ").map(String.init)
        self.familyFirst = familyFirst
        self.familySeparator = familySeparator
        self.groupNames = groupNames
        self.fileNames = fileNames
    }

    /// A Zipf-distributed word index.
    @inline(__always) func sample(_ rng: inout CorpusRandom) -> Int {
        let u = rng.unit()
        var lo = 0
        var hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if cumulative[mid] < u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// The corpus vocabularies: ~300 real words for each main language, fewer for Greek,
/// Hebrew and traditional Chinese, plus emoji. No word contains `"` or `\`.
enum CorpusVocabulary {
    /// Languages with their weight as a chat's main language.
    static let languages: [(language: CorpusLanguage, weight: Int)] = [
        (english, 22), (german, 9), (french, 8), (spanish, 9), (russian, 8), (chinese, 8), (traditionalChinese, 3),
        (japanese, 7), (korean, 6), (thai, 5), (arabic, 6), (hindi, 5), (turkish, 6), (greek, 2), (hebrew, 2),
    ]

    static let english = CorpusLanguage(
        code: "en", capitalizes: true,
        words: """
            the to you I and a it is that in for of on me my we this be have just so not are can at with do what
            tomorrow was it's but if will get now no yes ok okay know like good time today see think go going got one
            all there how out up about when your back then sure yeah love thanks thank great here need want would could
            should some more really too well make did right work home let's come day night tonight morning week weekend
            later soon still maybe also after before because where who which why sorry please nice cool lol haha call
            send sent message phone picture photo video meeting lunch dinner breakfast coffee tea beer wine party
            birthday friends family mom dad kids school office train bus car flight airport hotel trip holiday vacation
            beach mountain city town park street station ticket money pay price cheap expensive free busy tired happy
            sad late early fast slow new old big small long short hot cold rain snow sun weather outside inside left
            next last first second minute hour year month Monday Tuesday Wednesday Thursday Friday Saturday Sunday
            January February March April May June July August September October November December book read watch
            movie film show music song game play team match win lose start finish stop wait check look find lost found
            open close door window room house flat kitchen food cook recipe pizza pasta bread cheese chocolate cake
            fruit apple water shop store market buy bought order delivery package address email link file document
            report project deadline plan idea question answer problem issue bug fix update version release server code
            test build deploy doctor hospital sick better feel hope wish miss remember forget sleep wake dream walk run
            bike hike swim drive ride travel visit stay leave arrive meet talk tell say said ask help learn teach study
            write wrote draw paint garden seed dog cat bird tree flower river lake sea island bridge road map north
            south east west everyone someone nobody anything something everything nothing always never often sometimes
            usually again already almost enough only even though while until since during between against without
            under over around through across along near far away together alone funny crazy amazing awesome perfect
            terrible beautiful lovely quick quiet loud ready done anyway exactly definitely probably absolutely
            seriously honestly basically literally
            """,
        enders: [".", ".", "!", "?", "", "", "...", " :)"], offsets: [0, 0, 60, -300, -480, 600],
        firstNames:
            "Sam Alex Emma Oliver Sophie James Olivia Liam Chloe Noah Grace Ben Lucy Jack Mia Ethan Ruby Daniel Zoë Hannah Łukasz Małgorzata Siobhán",
        lastNames: "Smith Jones Brown Taylor Wilson Evans Walker Wright Green Hall Clarke Hughes Černý Nowak",
        groupNames: [
            "Hiking club", "Book club", "Family", "Flatmates", "Team standup", "Football Sunday", "Parents of class 3B",
            "Climbing gym", "Board games night", "Product launch", "Wedding planning", "Road trip",
        ],
        fileNames: [
            "report-q3.pdf", "invoice-2291.pdf", "slides-final-v2.key", "budget.xlsx", "notes.txt",
            "contract signed.pdf", "itinerary.docx",
        ])

    static let german = CorpusLanguage(
        code: "de", capitalizes: true,
        words: """
            ich du und ist nicht das die der es wir ja nein auch noch mal so was wie wann wo heute morgen gestern jetzt
            gleich später schon nur sehr gut danke bitte hallo tschüss genau klar super toll schön leider vielleicht doch
            aber oder weil wenn dann mit bei nach von zu für auf aus über unter vor hinter neben zwischen ohne gegen um
            bis seit während haben habe hast hat sein bin bist sind war waren werden wird kann kannst können muss musst
            müssen will willst wollen soll sollen darf möchte machen mache gehen gehe kommen komme sehen sagen sagt
            wissen weiß denke finde glaube brauche Zeit Tag Woche Wochenende Monat Jahr Stunde Minute Abend Nacht Mittag
            Frühstück Mittagessen Abendessen Kaffee Kuchen Bier Wein Wasser Brot Käse Wurst Apfel Straße Straßenbahn
            Bahnhof Hauptbahnhof Zug Bus Auto Fahrrad Flughafen Flug Hotel Urlaub Reise Ausflug Wanderung Berg Berge See
            Meer Strand Insel Wald Stadt Dorf Haus Wohnung Zimmer Küche Garten Tür Fenster Schlüssel Arbeit Büro Chef
            Kollege Kollegin Besprechung Termin Projekt Aufgabe Frage Antwort Problem Lösung Idee Plan Geld Preis teuer
            billig kostenlos Rechnung Bestellung Paket Lieferung Adresse Telefon Handy Nachricht Foto Bild Video Datei
            Freund Freundin Freunde Familie Mutter Vater Eltern Kinder Bruder Schwester Oma Opa Geburtstag Feier Party
            Geschenk Weihnachten Ostern Silvester Wetter Regen Schnee Sonne warm kalt heiß nass windig Montag Dienstag
            Mittwoch Donnerstag Freitag Samstag Sonntag Januar Februar März April Mai Juni Juli August September Oktober
            November Dezember Größe groß klein lang kurz alt neu jung schnell langsam früh spät müde glücklich traurig
            krank gesund fertig bereit wichtig richtig falsch einfach schwierig lecker Fußball Spiel Mannschaft Kino
            Film Buch Musik Konzert Lied Arzt Krankenhaus Apotheke Schule Universität Prüfung Führerschein Heinestraße
            Hauptstraße Bahnhofstraße Grüße Glückwunsch Entschuldigung Verspätung Abfahrt Ankunft Gleis Fahrkarte
            Einkaufsliste Supermarkt Bäckerei Brötchen Frühling Sommer Herbst Winter Übernachtung Gepäck Rucksack
            Wanderschuhe Regenjacke Hütte Gipfel Aussicht Straßenfest Weihnachtsmarkt Glühwein Kindergarten
            Hausaufgaben Überraschung überhaupt natürlich wirklich eigentlich übrigens trotzdem sofort zusammen allein
            immer nie oft manchmal wieder fast genug draußen drinnen oben unten links rechts vorne hinten hier dort
            überall jemand niemand etwas nichts alles viel wenig mehr weniger zuerst endlich bald
            """,
        enders: [".", ".", "!", "?", "", "..."], offsets: [60, 120],
        firstNames:
            "Anna Lukas Jonas Lea Felix Marie Paul Sophie Maximilian Lena Jürgen Jörg Björn Ömer Günther Käthe Uwe Sabine",
        lastNames: "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schäfer Groß Köhler Straßer",
        groupNames: [
            "Wandergruppe", "Familie", "WG Heinestraße", "Fußballverein", "Elternabend 3b", "Kegelclub",
            "Projekt Nordlicht", "Chor",
        ],
        fileNames: [
            "Rechnung_2023-11.pdf", "Mietvertrag.pdf", "Präsentation Übersicht.pptx", "Einkaufsliste.txt",
            "Führerschein-Scan.jpg",
        ])

    static let french = CorpusLanguage(
        code: "fr", capitalizes: true,
        words: """
            je tu il elle on nous vous ils est suis es sont ai as a avons avez ont demain être avoir faire fait aller
            vais va venir viens vient voir vu dire dit sais peux peut veux veut dois doit oui non merci bonjour bonsoir
            salut bonne nuit journée soirée aujourd'hui hier maintenant bientôt tard tôt déjà encore toujours jamais
            souvent parfois ici là où quand comment pourquoi qui quoi combien avec sans pour dans sur sous chez entre
            après avant pendant depuis vers et ou mais donc car parce que si très trop peu beaucoup plus moins bien mal
            bon mauvais beau belle grand petit nouveau vieux jeune long court chaud froid heureux content fatigué malade
            prêt désolé d'accord super génial parfait l'arbre l'été l'hiver l'école l'hôpital l'hôtel l'aéroport
            l'adresse l'heure l'eau café thé bière vin pain fromage croissant gâteau crème brûlée pâtisserie boulangerie
            restaurant dîner déjeuner repas cuisine recette marché magasin supermarché prix cher gratuit argent facture
            commande colis livraison rendez-vous réunion travail bureau collègue patron projet équipe question réponse
            problème idée voyage vacances plage mer montagne randonnée lac rivière forêt île ville village rue avenue
            place gare train métro bus voiture vélo avion vol billet valise chambre maison appartement jardin porte
            fenêtre clé famille mère père parents enfants frère sœur grand-mère grand-père ami amie amis copain
            anniversaire fête cadeau Noël Pâques semaine week-end mois année heure minute lundi mardi mercredi jeudi
            vendredi samedi dimanche janvier février mars avril mai juin juillet août septembre octobre novembre
            décembre printemps été automne hiver pluie neige soleil temps météo photo vidéo message téléphone portable
            fichier lien courriel film livre musique chanson concert cinéma musée théâtre match école université examen
            médecin pharmacie santé rêve cœur œuf façon français anglais voilà ça ce cette ces mon ma mes ton ta tes son
            sa ses notre votre leur tout tous toute rien personne quelqu'un chose vraiment peut-être évidemment
            heureusement malheureusement ensemble seul vite lentement attendre chercher trouver acheter payer manger
            boire dormir partir arriver rester parler écrire lire apprendre comprendre oublier aimer adorer préférer
            penser croire
            """,
        enders: [".", ".", " !", " ?", "", "…"], offsets: [60, 120],
        firstNames: "Camille Louis Léa Hugo Chloé Théo Manon Jules Inès Zoé Gaëlle Noël Hélène François",
        lastNames: "Dubois Martin Bernard Lefèvre Moreau Laurent Girard Rousseau Fontaine Garçon",
        groupNames: [
            "Famille", "Coloc", "Randonnée du dimanche", "Club de lecture", "Équipe produit", "Mariage de Léa",
        ],
        fileNames: [
            "facture-été.pdf", "billet-TGV.pdf", "recette crème brûlée.docx", "photos-l'arbre.zip", "devis.pdf",
        ])

    static let spanish = CorpusLanguage(
        code: "es", capitalizes: true,
        words: """
            yo tú él ella nosotros ellos usted es soy eres somos son está estoy estás estamos están mañana tengo tienes
            tiene tenemos hay voy vas va vamos hacer hago hace puedo puede quiero quieres sé saber ver veo decir dice sí
            no gracias hola adiós buenos días buenas noches tardes hoy ayer ahora luego pronto tarde temprano ya todavía
            siempre nunca veces aquí allí dónde cuándo cómo por qué quién cuánto con sin para en sobre entre después
            antes durante desde hasta y o pero porque si muy mucho poco más menos bien mal bueno malo bonito grande
            pequeño nuevo viejo joven largo corto caliente frío feliz contento cansado enfermo listo perdón vale claro
            genial perfecto café té cerveza vino agua pan queso jamón tortilla paella tapas pastel comida cena desayuno
            almuerzo cocina receta mercado tienda supermercado precio caro barato gratis dinero factura pedido paquete
            entrega cita reunión trabajo oficina compañero jefe proyecto equipo pregunta respuesta problema idea viaje
            vacaciones playa mar montaña senderismo lago río bosque isla ciudad pueblo calle avenida plaza estación tren
            metro autobús coche bicicleta avión vuelo billete maleta habitación casa piso jardín puerta ventana llave
            familia madre padre padres hijos hermano hermana abuela abuelo amigo amiga amigos cumpleaños fiesta regalo
            Navidad semana fin mes año hora minuto lunes martes miércoles jueves viernes sábado domingo enero febrero
            marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre primavera verano otoño invierno
            lluvia nieve sol tiempo foto vídeo mensaje teléfono móvil archivo enlace correo película libro música
            canción concierto cine museo teatro partido fútbol escuela universidad examen médico farmacia salud sueño
            corazón niño niña señor señora España Madrid Barcelona Sevilla Valencia ojalá quizás también tampoco además
            entonces pues oye mira venga guay vaya todo todos nada nadie alguien algo juntos solo rápido despacio
            esperar buscar encontrar comprar pagar comer beber dormir salir llegar quedarse hablar escribir leer
            aprender entender olvidar amar gustar pensar creer llamar mandar enviar recibir
            """,
        enders: [".", ".", "!", "", "..."], offsets: [60, 120, -300, -180],
        firstNames: "José María Lucía Pablo Sofía Javier Álvaro Carmen Iñaki Begoña Raúl Inés",
        lastNames: "García Fernández González Rodríguez López Martínez Sánchez Pérez Núñez Muñoz",
        groupNames: ["Familia", "Piso compartido", "Fútbol los domingos", "Viaje a Mallorca", "Equipo de ventas"],
        fileNames: ["factura-junio.pdf", "contrato alquiler.pdf", "fotos cumpleaños.zip", "presupuesto.xlsx"])

    static let russian = CorpusLanguage(
        code: "ru",
        words: """
            я ты он она мы вы они это что как где когда почему кто да нет привет пока спасибо завтра пожалуйста хорошо
            плохо нормально отлично ладно конечно может быть сегодня вчера сейчас потом скоро уже ещё всё все всегда
            никогда иногда часто здесь там тут туда сюда очень много мало больше меньше и или но а потому если чтобы с
            без для в на под над за перед после до около у от к по через между про есть был была были будет буду будем
            могу можешь хочу хочешь хочет надо нужно знаю знаешь думаю говорю сказал сказала видел смотреть делать
            сделать идти иду пойдём ехать еду приехал приехала работа работаю дом домой квартира комната кухня окно
            дверь ключ улица город деревня вокзал поезд автобус метро машина велосипед самолёт аэропорт билет гостиница
            отпуск поездка море пляж горы озеро река лес остров погода дождь снег солнце холодно тепло жарко утро день
            вечер ночь неделя выходные месяц год час минута понедельник вторник среда четверг пятница суббота
            воскресенье январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь весна лето
            осень зима семья мама папа родители дети сын дочь брат сестра бабушка дедушка друг подруга друзья рождения
            праздник подарок Новый ёлка чай кофе пиво вино вода хлеб сыр суп борщ пельмени блины торт еда завтрак обед
            ужин магазин рынок цена дорого дёшево деньги заказ посылка доставка адрес телефон сообщение фото видео файл
            ссылка почта встреча проект задача вопрос ответ проблема идея начальник коллега офис фильм книга музыка
            песня концерт кино театр музей школа университет экзамен врач больница аптека здоровье устал устала рад
            рада счастлив грустно весело интересно красиво вкусно быстро медленно рано поздно вместе один одна ёжик
            всё-таки пожалуй наверное кстати вообще короче давай давайте слушай смотри понятно точно правда серьёзно
            классно круто жаль извини прости ждать искать найти купить платить пить спать выйти прийти остаться
            говорить писать читать учить понимать забыть любить нравится думать верить звонить отправить получить
            Москва Петербург Казань
            """,
        enders: [".", ".", "!", "?", "", "..."], offsets: [180, 180, 120, 300],
        firstNames: "Дмитрий Анна Алексей Мария Иван Ольга Сергей Наталья Артём Алёна Фёдор Пётр",
        lastNames: "Иванов Смирнова Кузнецов Попова Соколов Лебедева Ёлкин Королёв",
        groupNames: ["Семья", "Дача", "Походы", "Работа", "Выпускники 2010", "Книжный клуб"],
        fileNames: ["договор.pdf", "счёт-фактура.pdf", "фото с дачи.zip", "отчёт за квартал.xlsx"])

    static let chinese = CorpusLanguage(
        code: "zh", spaced: false,
        words: """
            我 你 的 了 是 不 好 他 她 我们 你们 他们 这 那 有 没有 吗 呢 吧 啊 很 太 也 都 还 就 在 去 来 到 看 说 想 要 会 能 可以
            知道 觉得 喜欢 现在 今天 明天 昨天 早上 晚上 中午 下午 周末 星期一 星期五 时间 时候 一下 一起 已经 马上 刚才 以后 以前
            因为 所以 但是 如果 然后 还是 或者 什么 怎么 为什么 哪里 谁 多少 几点 谢谢 不客气 对不起 没关系 没问题 加油 辛苦了 哈哈
            真的 当然 一定 可能 应该 需要 工作 公司 同事 老板 会议 项目 问题 办法 意见 计划 朋友 家人 妈妈 爸爸 孩子 哥哥 姐姐
            弟弟 妹妹 爷爷 奶奶 生日 礼物 春节 中秋节 红包 吃饭 喝茶 咖啡 啤酒 水 米饭 面条 饺子 包子 火锅 烤鸭 早饭 午饭 晚饭 餐厅
            外卖 超市 商店 价格 便宜 贵 钱 付款 微信 支付宝 订单 快递 地址 电话 手机 消息 照片 视频 文件 链接 邮件 电影 音乐 歌 书
            游戏 比赛 学校 大学 考试 老师 学生 医生 医院 药 身体 感冒 天气 下雨 下雪 太阳 冷 热 舒服 累 开心 高兴 难过 生气 漂亮
            好吃 方便 麻烦 简单 容易 重要 北京 上海 广州 深圳 杭州 成都 西安 南京 香港 台北 东京 长城 故宫 天安门 西湖 旅游 旅行
            机场 飞机 火车 高铁 地铁 公交车 出租车 酒店 房间 行李 护照 签证 票 海边 山 湖 公园 城市 地方 路上 附近 前面 后面 左边
            右边 里面 外面 东西 事情 感觉 希望 记得 忘了 等 找 买 卖 送 带 回家 上班 下班 睡觉 起床 休息 运动 跑步 散步 聊天 见面
            出发 到了 开始 结束 准备 安排 决定 同意 帮忙 告诉 问 回答 学习 了解 认识 欢迎 恭喜 祝 快乐 健康 幸福 新年 国庆 假期
            放假 加班 开会 报告 数据 系统 服务器 更新 版本 测试 上线 周一 周二 周三 周四 周五 一月 二月 三月 十月 十二月 春天
            夏天 秋天 冬天 猫 狗 花 树 月亮 星星
            """,
        enders: ["。", "。", "！", "？", "", "～"], comma: "，", offsets: [480],
        firstNames: "美玲 伟 芳 娜 强 磊 静 杰 丽 明 晓东 婷婷", lastNames: "王 李 张 刘 陈 杨 黄 赵 周 吴",
        familyFirst: true,
        groupNames: ["家人群", "同事群", "大学同学", "周末爬山", "北京旅游", "读书会"],
        fileNames: ["会议纪要.docx", "签证申请表.pdf", "照片.zip", "报价单.xlsx"])

    static let traditionalChinese = CorpusLanguage(
        code: "zh-Hant", spaced: false,
        words: """
            我 你 的 了 是 不 好 他 她 我們 你們 他們 這 那 有 沒有 嗎 呢 吧 很 也 都 還 就 在 去 來 看 說 想 要 會 可以 知道 覺得 喜歡
            現在 今天 明天 昨天 晚上 週末 時間 一起 已經 因為 所以 但是 如果 什麼 怎麼 為什麼 哪裡 謝謝 對不起 沒問題 真的 當然 工作
            公司 同事 會議 問題 朋友 家人 媽媽 爸爸 生日 禮物 吃飯 咖啡 珍珠奶茶 小籠包 牛肉麵 便當 夜市 餐廳 價格 便宜 貴 錢 訊息
            照片 影片 電話 手機 電影 音樂 書 學校 醫院 天氣 下雨 颱風 冷 熱 開心 漂亮 好吃 方便 臺北 台北 台灣 臺灣 高雄 台中 香港
            東京 東京都 九份 日月潭 阿里山 故宮 捷運 高鐵 機場 飛機 飯店 旅行 海邊 山 公園 城市 附近 東西 希望 記得 等 找 買 回家
            上班 下班 睡覺 見面 出發 開始 結束 準備 幫忙 學習 歡迎 恭喜 新年快樂
            """,
        enders: ["。", "！", "？", ""], comma: "，", offsets: [480],
        firstNames: "志明 淑芬 家豪 怡君 俊傑 雅婷", lastNames: "林 陳 黃 張 李 王", familyFirst: true,
        groupNames: ["家族群組", "臺北同學會", "登山社"], fileNames: ["行程表.pdf", "發票.jpg"])

    static let japanese = CorpusLanguage(
        code: "ja", spaced: false,
        words: """
            は が を に で と の も ね よ か です ます 私 あなた 今日 明日 東京 これ それ あれ ここ そこ どこ いつ 何 だれ どう
            なぜ はい いいえ ありがとう ありがとうございます すみません ごめんなさい おはよう こんにちは こんばんは おやすみ
            よろしく お願いします 大丈夫 本当 すごい 楽しい 嬉しい 悲しい 忙しい 疲れた 美味しい 高い 安い 新しい 古い 大きい
            小さい 暑い 寒い 昨日 今 あとで すぐ もう まだ いつも ときどき 朝 昼 夜 週末 来週 先週 時間 分 月曜日 金曜日 土曜日
            日曜日 一月 四月 八月 十二月 春 夏 秋 冬 天気 雨 雪 晴れ 仕事 会社 会議 同僚 上司 プロジェクト 資料 メール 電話
            写真 動画 ファイル リンク メッセージ 友達 家族 母 父 お母さん お父さん 子供 兄 姉 弟 妹 おばあちゃん おじいちゃん
            誕生日 プレゼント パーティー お正月 ご飯 朝ごはん 昼ごはん 晩ごはん ラーメン 寿司 天ぷら うどん そば カレー お茶
            コーヒー ビール 水 パン ケーキ 店 スーパー コンビニ 値段 お金 注文 配達 荷物 住所 東京都 大阪 京都 北海道 沖縄
            横浜 名古屋 福岡 富士山 新宿 渋谷 浅草 駅 電車 新幹線 地下鉄 バス タクシー 車 自転車 飛行機 空港 ホテル 部屋 旅行
            温泉 海 山 川 公園 桜 花見 紅葉 映画 音楽 本 ゲーム 試合 学校 大学 試験 先生 学生 病院 薬 風邪 元気 行く 行きます
            来る 来ます 見る 見ます 食べる 食べます 飲む 飲みます 買う 買いました 会う 会いましょう 待つ 待って 帰る 帰ります
            寝る 起きる 働く 休む 遊ぶ 話す 聞く 読む 書く 思う 分かる 分かりました 知る 知っています 使う 作る 送る 送ります
            届く 届きました 始まる 終わる 準備 予約 確認 連絡 返事 質問 答え 問題 大事 簡単 難しい 便利 一緒に 一人で ちょっと
            たくさん 少し とても かなり 多分 きっと やっぱり でも だから それで そして また へ から まで より な でした ました
            ません ください たい ない ある いる する した して しよう カラオケ スマートフォン アプリ パソコン インターネット
            ニュース チケット ランチ ディナー デザート
            天気予報 今週 来月 去年 今年 毎日 毎週 会議室 打ち合わせ 締め切り 宿題 お弁当 焼肉 餃子 たこ焼き お好み焼き 抹茶 緑茶 日本酒 居酒屋 神社 お寺 お土産 旅館 改札 切符 乗り換え 遅刻 残業 休み
            映画館 美術館 図書館 誕生日おめでとう 楽しみ 寂しい 眠い 可愛い かっこいい
            """,
        enders: ["。", "。", "！", "？", "", "ね。", "よ！"], comma: "、", offsets: [540],
        firstNames: "健二 美咲 翔太 さくら 陽菜 大輝 花子 太郎 結衣 蓮", lastNames: "田中 鈴木 佐藤 高橋 渡辺 伊藤 山本 中村",
        familyFirst: true, familySeparator: " ",
        groupNames: ["家族", "大学の友達", "登山部", "会社のチーム", "東京旅行"],
        fileNames: ["報告書.docx", "見積書.pdf", "旅行の写真.zip", "議事録.txt"])

    static let korean = CorpusLanguage(
        code: "ko",
        words: """
            저 저는 나 너 우리 그 이것 그것 여기 거기 어디 언제 뭐 누구 어떻게 왜 네 아니요 감사합니다 고마워 고마워요 내일 미안해
            죄송합니다 안녕하세요 안녕 잘자 좋아요 좋아 괜찮아요 괜찮아 정말 진짜 너무 아주 조금 많이 오늘 어제 지금 나중에 곧 벌써
            아직 항상 가끔 자주 아침 점심 저녁 밤 주말 다음주 지난주 시간 분 월요일 금요일 토요일 일요일 봄 여름 가을 겨울 날씨 비 눈
            맑음 덥다 춥다 회사 회의 동료 팀장님 프로젝트 자료 이메일 전화 사진 동영상 파일 링크 메시지 친구 친구들 가족 엄마 아빠
            어머니 아버지 아이 형 누나 오빠 언니 동생 할머니 할아버지 생일 선물 파티 설날 추석 밥 아침밥 점심밥 저녁밥 김치
            김치찌개 된장찌개 비빔밥 불고기 떡볶이 라면 삼겹살 치킨 맥주 소주 커피 물 빵 케이크 가게 편의점 마트 가격 돈 주문 배달
            택배 주소 서울 서울에서 부산 부산에서 제주도 인천 대구 광주 강남 홍대 명동 한강 역 기차 KTX 지하철 버스 택시 자동차
            자전거 비행기 공항 호텔 방 여행 바다 산 강 공원 벚꽃 단풍 영화 음악 노래 책 게임 경기 학교 대학교 시험 선생님 학생 병원
            약 감기 건강 가요 갈게요 와요 올게요 봐요 먹어요 먹었어요 마셔요 사요 샀어요 만나요 만날까요 기다려요 돌아가요 자요
            일어나요 일해요 쉬어요 놀아요 말해요 들어요 읽어요 써요 생각해요 알아요 몰라요 알겠어요 사용해요 만들어요 보내요
            보냈어요 도착했어요 시작해요 끝났어요 준비 예약 확인 연락 답장 질문 대답 문제 중요해요 쉬워요 어려워요 편해요 같이 혼자
            그리고 그래서 하지만 그런데 그럼 아마 꼭 역시 있어요 없어요 해요 했어요 할까요 싶어요 주세요 맛있어요 재미있어요
            행복해요 피곤해요 바빠요 예뻐요 대박 화이팅 ㅋㅋㅋ ㅎㅎ
            화요일 수요일 목요일 내년 작년 올해 매일 회의실 마감 숙제 도시락 냉면 김밥 순두부 갈비 막걸리 녹차 카페 빵집 백화점 시장 지하철역 버스정류장 환승 표 늦었어요 야근 휴가 연휴 영화관 미술관
            도서관 박물관 경복궁 남산타워 인사동 해운대 속초 전주 경주 대전 춘천 축하해요 사랑해 보고싶어 배고파 졸려 심심해 귀여워 멋있어 기분 사람 시간표 우산 날씨가 주말에 퇴근 출근
            """,
        enders: [".", "!", "?", "", "~", " ㅋㅋ"], offsets: [540],
        firstNames: "지우 민준 서연 하은 도윤 지민 수아 현우 예준 서윤", lastNames: "김 이 박 최 정 강 조 윤", familyFirst: true,
        groupNames: ["가족", "회사 팀", "대학 동기", "등산 모임", "서울 여행"], fileNames: ["보고서.hwp", "회의록.docx", "여행 사진.zip"])

    static let thai = CorpusLanguage(
        code: "th", spaced: false,
        words: """
            ผม ฉัน คุณ ครับ ค่ะ นะ ไม่ ที่ ได้ จะ ก็ เขา เรา พวกเขา นี่ นั่น นี้ นั้น ที่นี่ ที่นั่น ที่ไหน เมื่อไร อะไร ใคร อย่างไร ทำไม ใช่
            ไม่ใช่ คะ จ้า ขอบคุณ ขอบคุณครับ ขอบคุณค่ะ ขอโทษ สวัสดี สวัสดีครับ สวัสดีค่ะ ไม่เป็นไร โอเค ดี ดีมาก สบายดี จริง มาก น้อย
            นิดหน่อย วันนี้ พรุ่งนี้ เมื่อวาน ตอนนี้ เดี๋ยว แล้ว ยัง เสมอ บางที บ่อย เช้า กลางวัน เย็น กลางคืน สุดสัปดาห์ อาทิตย์หน้า เวลา
            นาที ชั่วโมง วันจันทร์ วันศุกร์ วันเสาร์ วันอาทิตย์ ร้อน หนาว ฝน ฝนตก แดด อากาศ ทำงาน บริษัท ประชุม เพื่อนร่วมงาน หัวหน้า
            โครงการ เอกสาร อีเมล โทรศัพท์ รูป รูปภาพ วิดีโอ ไฟล์ ลิงก์ ข้อความ เพื่อน ครอบครัว แม่ พ่อ ลูก พี่ น้อง ยาย ตา ปู่ ย่า
            วันเกิด ของขวัญ ปาร์ตี้ สงกรานต์ ลอยกระทง ข้าว ข้าวผัด ผัดไทย ต้มยำกุ้ง ส้มตำ แกงเขียวหวาน ก๋วยเตี๋ยว ข้าวเหนียว มะม่วง
            กาแฟ ชา เบียร์ น้ำ น้ำเปล่า ขนม ร้าน ร้านอาหาร ตลาด ห้าง เซเว่น ราคา เงิน บาท สั่ง ส่ง พัสดุ ที่อยู่ กรุงเทพ กรุงเทพฯ
            เชียงใหม่ ภูเก็ต พัทยา เกาะสมุย กระบี่ อยุธยา สถานี รถไฟ รถไฟฟ้า รถเมล์ แท็กซี่ ตุ๊กตุ๊ก รถ จักรยาน เครื่องบิน สนามบิน
            โรงแรม ห้อง เที่ยว ท่องเที่ยว ทะเล ภูเขา แม่น้ำ สวน วัด ดอยสุเทพ หนัง เพลง หนังสือ เกม ฟุตบอล โรงเรียน มหาวิทยาลัย สอบ ครู
            นักเรียน หมอ โรงพยาบาล ยา ไม่สบาย สุขภาพ ไป มา ดู กิน ดื่ม ซื้อ ขาย เจอ รอ กลับ นอน ตื่น พัก เล่น พูด ฟัง อ่าน เขียน
            คิด รู้ เข้าใจ ใช้ ทำ ช่วย เริ่ม เสร็จ เตรียม จอง ยืนยัน ติดต่อ ตอบ คำถาม ปัญหา สำคัญ ง่าย ยาก สะดวก ด้วยกัน คนเดียว และ
            แต่ เพราะ ถ้า กับ ของ ใน บน กำลัง เคย ต้อง อยาก ชอบ รัก สนุก อร่อย สวย เหนื่อย ยุ่ง ง่วง หิว อิ่ม เผ็ด หวาน เค็ม เปรี้ยว
            ใจเย็น สบาย น่ารัก เก่ง เยี่ยม ห้าห้าห้า ๕๕๕
            วันอังคาร วันพุธ วันพฤหัส ปีหน้า ปีที่แล้ว ทุกวัน ห้องประชุม กำหนดส่ง การบ้าน ข้าวมันไก่ ข้าวขาหมู หมูกระทะ
            ชาเย็น ชานม ไอศกรีม ผลไม้ ทุเรียน มังคุด เงาะ ตลาดนัด จตุจักร สยาม สีลม สุขุมวิท เยาวราช ป้ายรถเมล์ ตั๋ว สาย
            ทำโอที วันหยุด ปิดเทอม โรงหนัง พิพิธภัณฑ์ ห้องสมุด วัดพระแก้ว วัดอรุณ ดอยอินทนนท์ หัวหิน เกาะเต่า ปาย
            สุโขทัย ขอนแก่น อุดร คิดถึง รักนะ ง่วงนอน เบื่อ น่าสนใจ สวยมาก ยินดีด้วย สุขสันต์วันเกิด ของฝาก คน หมา แมว
            ฝนตกหนัก น้ำท่วม รถติด
            """,
        enders: ["", "", " 555", "นะ", "ครับ", "ค่ะ", "!"], comma: " ", offsets: [420],
        firstNames: "สมชาย สมศรี มานี ปิติ ชูใจ วีระ นภา กมล อรุณ พิมพ์", lastNames: "ใจดี รักไทย ศรีสุข สุขใจ ทองดี แก้วมณี",
        groupNames: ["ครอบครัว", "เพื่อนมหาลัย", "ทีมงาน", "ทริปเชียงใหม่"],
        fileNames: ["ใบเสร็จ.pdf", "รูปทริป.zip", "สัญญา.docx"])

    static let arabic = CorpusLanguage(
        code: "ar",
        words: """
            أنا أنت هو هي نحن هم هذا هذه في على من إلى و شكرا ذلك هنا هناك أين متى ماذا ما كيف لماذا نعم لا شكراً شُكْرًا عفوا آسف
            مرحبا مَرْحَبًا أهلا السلام عليكم صباح الخير مساء تصبح خير إن شاء الله الحمد يلا تمام طيب جيد جميل رائع ممتاز حقا جدا
            كثير قليل اليوم غدا أمس الآن بعدين قريبا دائما أحيانا الصبح الظهر المساء الليل الأسبوع نهاية الشهر السنة ساعة دقيقة الاثنين
            الجمعة السبت الأحد الصيف الشتاء الربيع الخريف الطقس مطر شمس حر برد العمل الشركة اجتماع زميل المدير مشروع ملف تقرير بريد
            هاتف جوال رسالة صورة فيديو رابط صديق أصدقاء العائلة أمي أبي الأولاد ابن بنت أخ أخت جدي جدتي عيد ميلاد هدية رمضان الفطر
            الأضحى إفطار فطور غداء عشاء قهوة شاي ماء خبز حمص فلافل منسف كنافة شاورما تمر حلويات مطعم سوق محل سعر غالي رخيص فلوس
            دينار درهم طلب توصيل طرد عنوان عمّان دبي القاهرة بيروت الرياض تونس بغداد دمشق مكة البتراء وادي رم محطة قطار حافلة تاكسي
            سيارة طائرة مطار فندق غرفة سفر رحلة البحر الجبل الصحراء النهر حديقة مدينة قرية شارع فيلم موسيقى أغنية كتاب كِتَاب مكتبة
            مدرسة جامعة امتحان معلم طالب طبيب مستشفى دواء صحة مريض تعبان سعيد حزين مشغول جوعان لذيذ سهل صعب مهم ذهب أذهب جاء أجي شاف
            أشوف أكل آكل شرب اشترى قابل انتظر رجع نام صحي اشتغل ارتاح لعب تكلم سمع قرأ كتب كَتَبَ فكر عرف أعرف فهم استخدم عمل أرسل
            وصل بدأ خلص جهز حجز أكد اتصل رد سؤال جواب مشكلة مع بدون عن قبل بعد عند بين أو لكن لأن إذا لو كل بعض كمان برضه يعني
            خلاص والله حبيبي حبيبتي أخي صديقي
            الثلاثاء الأربعاء الخميس القادمة يوم الاجتماعات موعد واجب كبسة مقلوبة فتوش تبولة زيتون عصير بوظة سينما متحف
            البريد مبروك عام وأنتم بخير اشتقت لك وحشتني ممكن لازم أكيد طبعا شوي كتير هلق بكرة امبارح شو ليش وين كيفك
            منيح الحمدلله تعبت نعسان
            """,
        enders: [".", "!", "؟", "", "…"], comma: "، ", offsets: [180, 120, 240],
        firstNames: "عمر أحمد فاطمة ليلى يوسف مريم خالد سارة محمد نور",
        lastNames: "الحداد العلي الخطيب المصري النجار الشامي",
        groupNames: ["العائلة", "أصدقاء الجامعة", "فريق العمل", "رحلة البتراء"],
        fileNames: ["تقرير.pdf", "فاتورة.pdf", "صور الرحلة.zip"])

    static let hindi = CorpusLanguage(
        code: "hi",
        words: """
            मैं तुम आप है हैं का की के में और वह हम वे यह वो ये क्या कौन कब कहाँ कैसे क्यों हाँ नहीं जी धन्यवाद शुक्रिया नमस्ते माफ़
            कीजिए कोई बात ठीक अच्छा बहुत थोड़ा ज़्यादा कम आज कल परसों अभी बाद जल्दी पहले हमेशा कभी सुबह दोपहर शाम रात हफ़्ता
            सप्ताहांत महीना साल घंटा मिनट सोमवार शुक्रवार शनिवार रविवार गर्मी सर्दी बारिश मौसम धूप काम ऑफिस कंपनी मीटिंग सहकर्मी
            बॉस प्रोजेक्ट फ़ाइल रिपोर्ट ईमेल फ़ोन मोबाइल संदेश फ़ोटो तस्वीर वीडियो लिंक दोस्त दोस्तों परिवार माँ माता पिता पापा
            बच्चे बेटा बेटी भाई बहन दादी दादा नानी नाना जन्मदिन तोहफ़ा त्योहार दिवाली होली ईद खाना नाश्ता चाय कॉफ़ी पानी रोटी चावल
            दाल सब्ज़ी पनीर समोसा बिरयानी पाव भाजी मिठाई लड्डू दुकान बाज़ार कीमत पैसे रुपये सस्ता महंगा ऑर्डर डिलीवरी पार्सल पता
            मुंबई दिल्ली बेंगलुरु कोलकाता चेन्नई जयपुर गोवा आगरा ताजमहल स्टेशन ट्रेन बस टैक्सी ऑटो गाड़ी कार साइकिल हवाई जहाज़
            एयरपोर्ट होटल कमरा यात्रा छुट्टी समुद्र पहाड़ नदी झील पार्क शहर गाँव सड़क फ़िल्म संगीत गाना किताब खेल क्रिकेट मैच
            स्कूल कॉलेज विश्वविद्यालय परीक्षा शिक्षक छात्र डॉक्टर अस्पताल दवा बीमार स्वास्थ्य थका खुश दुखी व्यस्त भूखा स्वादिष्ट
            आसान मुश्किल ज़रूरी सुंदर जाना जाओ आना आओ देखना देखो खाओ पीना ख़रीदना मिलना मिलते इंतज़ार वापस सोना उठना आराम खेलना
            बोलना सुनना पढ़ना लिखना सोचना जानना समझना भेजना भेजा पहुँचना पहुँच गया शुरू ख़त्म तैयार बुकिंग पक्का सवाल जवाब समस्या
            साथ अकेले लेकिन क्योंकि अगर तो भी पर से तक को ने था थी थे होगा करना करो किया कर रहा हूँ चलो चलिए बिल्कुल सच शायद
            ज़रूर वाह बढ़िया मस्त यार साहब
            मंगलवार बुधवार गुरुवार अगले पिछले हर दिन रूम डेडलाइन होमवर्क छोले भटूरे डोसा इडली जलेबी गुलाब जामुन लस्सी आम
            सिनेमा संग्रहालय पुस्तकालय मंदिर बधाई हो मुबारक याद रही प्यार नींद बोर दिलचस्प खुशी ट्रैफिक जाम आज रात
            दफ़्तर छुट्टियाँ शादी
            """,
        enders: ["।", "।", "!", "?", ""], offsets: [330],
        firstNames: "प्रिया राहुल अंजलि अमित नेहा विक्रम पूजा अर्जुन कविता रोहन", lastNames: "शर्मा वर्मा गुप्ता सिंह पटेल जोशी",
        groupNames: ["परिवार", "कॉलेज के दोस्त", "ऑफिस टीम", "गोवा ट्रिप"], fileNames: ["रिपोर्ट.pdf", "बिल.pdf", "फ़ोटो.zip"])

    static let turkish = CorpusLanguage(
        code: "tr", capitalizes: true,
        words: """
            ben sen o biz siz onlar bu şu ve ama bir çok yarın burada orada nerede ne zaman kim nasıl neden evet hayır
            teşekkürler teşekkür ederim sağ ol merhaba selam günaydın iyi akşamlar geceler görüşürüz tamam olur peki
            güzel harika süper kötü az biraz bugün dün şimdi sonra hemen önce hep bazen sık sabah öğle akşam gece hafta
            sonu ay yıl saat dakika pazartesi cuma cumartesi pazar ilkbahar yaz sonbahar kış hava yağmur kar güneş sıcak
            soğuk ılık iş işyeri şirket toplantı arkadaşı müdür proje dosya rapor e-posta telefon mesaj fotoğraf video
            bağlantı arkadaş arkadaşlar aile anne baba annem babam çocuk çocuklar oğlum kızım kardeş abla ağabey
            babaanne anneanne dede doğum günü hediye bayram Ramazan Kurban kahvaltı yemeği yemek çay kahve su ekmek
            peynir simit börek baklava menemen kebap lahmacun döner künefe meze dondurma lokanta restoran market fiyat
            ucuz pahalı para lira sipariş kargo paket adres İstanbul Ankara İzmir Antalya Bursa Kapadokya Kadıköy
            Beşiktaş Üsküdar Taksim Boğaz Büyükada Eminönü Galata istasyon tren otobüs metro vapur taksi araba bisiklet
            uçak havalimanı otel oda tatil seyahat gezi deniz plaj dağ göl nehir park şehir köy sokak cadde film müzik
            şarkı kitap oyun maç futbol okul üniversite sınav öğretmen öğrenci doktor hastane ilaç hasta sağlık yorgun
            mutlu üzgün meşgul aç lezzetli kolay zor önemli gitmek gidiyorum geliyorum gelmek görmek içmek almak satmak
            buluşmak beklemek dönmek uyumak kalkmak çalışmak dinlenmek oynamak konuşmak dinlemek okumak yazmak
            düşünmek bilmek anlamak kullanmak yapmak göndermek ulaşmak başlamak bitirmek hazırlamak rezervasyon onay
            soru cevap sorun birlikte yalnız çünkü eğer ile için gibi kadar de da mı mi mu mü var yok oldu olacak yaptım
            geldim gittim geliyor gidiyor lütfen maşallah inşallah gelsin afiyet olsun geçmiş hoş geldin bulduk ışık
            Işık kızlar ıslak dağlık
            salı çarşamba perşembe gelecek geçen her gün odası teslim ödev mantı pide kumpir ayran şalgam lokum çorba
            pilav dolma sinema müze kütüphane cami tebrikler doğdun özledim seviyorum uykum sıkıldım ilginç trafik
            """,
        enders: [".", ".", "!", "?", "", "..."], offsets: [180],
        firstNames: "Ayşe Mehmet Elif Emre Zeynep Burak Işıl Çağla Öykü Gökhan İbrahim Şule",
        lastNames: "Yılmaz Kaya Demir Şahin Çelik Öztürk Aydın Doğan",
        groupNames: ["Aile", "Üniversite arkadaşları", "İş ekibi", "Kapadokya gezisi"],
        fileNames: ["fatura.pdf", "kira sözleşmesi.pdf", "tatil fotoğrafları.zip"])

    static let greek = CorpusLanguage(
        code: "el",
        words: """
            και να το η ο είναι εγώ εσύ αυτός αυτή εμείς εσείς αυτοί αυτό εδώ εκεί πού πότε τι ποιος πώς γιατί ναι όχι ευχαριστώ
            παρακαλώ γεια σας καλημέρα καλησπέρα καληνύχτα εντάξει τέλεια ωραία καλά πολύ λίγο σήμερα αύριο χθες τώρα μετά νωρίς αργά
            πάντα ποτέ πρωί μεσημέρι βράδυ νύχτα εβδομάδα Σαββατοκύριακο μήνας χρόνος ώρα λεπτό Δευτέρα Παρασκευή Σάββατο Κυριακή
            καλοκαίρι χειμώνας καιρός βροχή ήλιος ζέστη κρύο δουλειά γραφείο συνάντηση φίλος φίλοι οικογένεια μαμά μπαμπάς γιαγιά
            παππούς γενέθλια δώρο Πάσχα Χριστούγεννα φαγητό πρωινό μεσημεριανό βραδινό καφές τσάι νερό ψωμί τυρί φέτα σουβλάκι
            μουσακάς σπανακόπιτα γύρος ταβέρνα αγορά τιμή λεφτά Αθήνα Θεσσαλονίκη Κρήτη Σαντορίνη Ρόδος Κέρκυρα σταθμός τρένο
            λεωφορείο πλοίο αεροπλάνο αεροδρόμιο ξενοδοχείο δωμάτιο ταξίδι διακοπές θάλασσα παραλία βουνό νησί πόλη χωριό δρόμος
            ταινία μουσική τραγούδι βιβλίο σχολείο πανεπιστήμιο γιατρός νοσοκομείο κουρασμένος χαρούμενος νόστιμο εύκολο δύσκολο
            πάμε έλα θέλω μπορώ ξέρω νομίζω βλέπω τρώω πίνω αλλά αν με για σε από μέχρι μαζί μόνος ίσως σίγουρα φυσικά
            """,
        enders: [".", "!", ";", ""], offsets: [120, 180],
        firstNames: "Ελένη Γιώργος Μαρία Νίκος Κατερίνα Δημήτρης Σοφία Γιάννης",
        lastNames: "Παπαδοπούλου Παπαδόπουλος Νικολάου Γεωργίου Οικονόμου",
        groupNames: ["Οικογένεια", "Φίλοι", "Ομάδα δουλειάς"], fileNames: ["τιμολόγιο.pdf", "φωτογραφίες.zip"])

    static let hebrew = CorpusLanguage(
        code: "he",
        words: """
            אני אתה את הוא היא אנחנו אתם הם זה זאת כאן שם איפה מתי מה מי איך למה כן לא תודה תּוֹדָה בבקשה בְּבַקָּשָׁה שלום שָׁלוֹם
            בוקר טוב ערב לילה סבבה בסדר יופי מעולה מאוד קצת היום מחר אתמול עכשיו אחר כך מוקדם מאוחר תמיד פעם צהריים שבוע סוף חודש
            שנה שעה דקה ראשון שישי שבת קיץ חורף מזג אוויר גשם שמש חם קר עבודה משרד פגישה חבר חברה חברים משפחה אמא אבא סבתא סבא
            יום הולדת מתנה חג פסח ראש השנה אוכל ארוחת קפה תה מים לחם גבינה חומוס פלאפל שקשוקה שווארמה מסעדה שוק מחיר כסף שקל תל אביב
            ירושלים חיפה אילת המלח תחנה רכבת אוטובוס מונית מכונית מטוס שדה תעופה מלון חדר טיול חופשה ים חוף הר עיר רחוב סרט מוזיקה
            שיר ספר בית אוניברסיטה רופא חולים עייף שמח טעים קל קשה חשוב ללכת לבוא לראות לאכול לשתות לקנות לפגוש לחכות לחזור לישון
            לעבוד לדבר לשמוע לקרוא לכתוב לחשוב לדעת להבין לשלוח אבל כי אם עם בלי של על אל יחד לבד אולי בטח כמובן יאללה
            """,
        enders: [".", "!", "?", ""], offsets: [120, 180],
        firstNames: "יעל נועה אורי דניאל תמר איתי מיכל עומר", lastNames: "כהן לוי מזרחי פרץ ביטון אברהם",
        groupNames: ["משפחה", "חברים מהצבא", "צוות עבודה"], fileNames: ["חשבונית.pdf", "תמונות.zip"])

    /// Emoji, including ZWJ sequences, skin tones and flags.
    static let emoji: [[UInt8]] = """
        😂 😂 🤣 😊 😍 🥰 😘 😅 😭 😢 😎 🤔 🙄 😴 🤗 🙏 👍 👍🏻 👍🏽 👍🏿 👏 👏🏾 🙌 💪 💪🏼 ❤️ 💔 🔥 ✨ 🎉 🎂 🎁 ☕ 🍕 🍣 🍜 🍺 🍷 🌸 🌞
        🌧️ ❄️ 🏔️ 🏖️ ✈️ 🚆 🚗 🚲 📷 📎 ✅ ❌ ⚠️ 💯 🤦‍♂️ 🤦🏽‍♀️ 🤷‍♀️ 🤷🏻‍♂️ 👨‍👩‍👧‍👦 👩‍💻 🧑🏾‍🍳 🏳️‍🌈 🇩🇪 🇫🇷 🇪🇸 🇯🇵 🇰🇷 🇹🇭 🇹🇷 🇮🇳 🇬🇧 🇺🇸
        🇧🇷 🇺🇦 🇨🇳 🇹🇼 🇸🇦 🇮🇱 🇬🇷 🐶 🐱
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { Array($0.utf8) }

    /// Reaction emoji.
    static let reactions = ["👍", "❤️", "😂", "😮", "😢", "🙏", "🎉", "🔥", "👏🏽"]

    /// Hosts for generated links.
    static let linkHosts = [
        "example.com", "www.example.org", "docs.example.net", "news.example.co.uk", "shop.example.de",
        "photos.example.com",
        "maps.example.com", "video.example.tv", "blog.example.fr", "wiki.example.org",
    ]

    /// Bare domains (ChatText's MarkdownGrammar, bare domains: name of letters, TLD of 2–8 letters).
    static let bareDomains = [
        "example.com", "simplex.chat", "wikipedia.org", "openstreetmap.org", "duckduckgo.com", "lumiere.fr",
    ]

    /// Link preview titles; none of them contains a query word.
    static let previewTitles = [
        "Photo album", "Opening hours and prices", "Route description", "Release notes", "Menu", "Event page",
        "Article",
    ]

    /// Texts of event items; `%` is replaced by a member name.
    static let events = [
        "missed call", "call ended", "incoming video call", "% joined the group", "% left the group",
        "% changed the group picture",
        "% was added by the group owner", "connected", "security code changed",
    ]
}
